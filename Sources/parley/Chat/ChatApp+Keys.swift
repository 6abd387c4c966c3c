import Foundation
import ParleyKit
import ParleyProtocol

// Keys: the login form, the list, the dialogue, prompts.
extension ChatApp {
    /// One entry of the list pane that can be selected.
    enum ListEntry {
        case conversation(ConversationID)
        case request(FriendRequest)
        case contact(ContactsViewModel.Contact)
    }

    func handle(_ key: Key) {
        if key == .ctrl("c") {
            quitting = true
            return
        }
        switch mode {
        case .login: handleLogin(key)
        case .main:
            if prompt != nil {
                handlePrompt(key)
            } else if focus == .discover {
                handleDiscover(key)
            } else if focus == .devices {
                handleDevices(key)
            } else if focus == .search {
                handleSearch(key)
            } else if focus == .dialogue && dialogue != nil {
                handleDialogue(key)
            } else {
                handleList(key)
            }
        }
    }

    // MARK: Login

    private func handleLogin(_ key: Key) {
        guard !login.isBusy else { return }
        let count = login.fieldCount
        switch key {
        case .ctrl("t"), .function(2):
            login.switchMethod()
        case .tab, .down:
            login.focus = (login.focus + 1) % count
        case .backTab, .up:
            login.focus = (login.focus + count - 1) % count
        case .escape:
            quitting = true
        case .enter:
            if login.method == .sms && login.focus == 0 {
                requestCode()
            } else if login.focus < count - 1 {
                login.focus += 1
            } else {
                submitLogin()
            }
        default:
            var editor = login[field: login.focus]
            if editor.handle(key) {
                login[field: login.focus] = editor
                if case .failed = login.phase { login.phase = .editing }
            }
        }
    }

    private func requestCode() {
        guard login.phoneLooksValid else {
            login.phase = .failed(LoginForm.phoneProblem(in: language))
            return
        }
        let wait = login.secondsUntilCode()
        guard wait == 0 else {
            login.phase = .note(language.pick("A new code can be requested in \(wait) s", "\(wait) 秒后可重新获取验证码"))
            login.focus = 1
            return
        }
        let phone = login.phone.text
        login.phase = .busy(language.pick("Requesting a code…", "正在获取验证码…"))
        Task {
            do throws(ParleyError) {
                let sent = try await client.requestSMSCode(phone: phone)
                login.codeAvailableAt = Date().addingTimeInterval(TimeInterval(sent.retryAfterSeconds))
                login.phase = .note(language.pick("Code sent: \(sent.codeLength) digits, valid \(sent.expiresInSeconds / 60) min",
                                                  "验证码已发送：\(sent.codeLength) 位，\(sent.expiresInSeconds / 60) 分钟内有效"))
                login.focus = 1
            } catch {
                if let retry = error.retryAfterSeconds { login.codeAvailableAt = Date().addingTimeInterval(TimeInterval(retry)) }
                login.phase = .failed(describe(error))
            }
            post.yield(.changed)
        }
    }

    private func submitLogin() {
        if let problem = login.problem(in: language) {
            login.phase = .failed(problem)
            return
        }
        let form = login
        login.phase = .busy(form.method == .register ? language.pick("Registering, please wait…", "正在注册，请稍候…")
                                                     : language.pick("Logging in, please wait…", "正在登录，请稍候…"))
        Task {
            do throws(ParleyError) {
                switch form.method {
                case .password:
                    try await client.login(username: form.username.text.trimmingCharacters(in: .whitespaces), password: form.password.text)
                case .register:
                    try await client.register(username: form.username.text.trimmingCharacters(in: .whitespaces), password: form.password.text)
                case .sms:
                    try await client.login(phone: form.phone.text, code: form.code.text)
                }
                await enterMain()
            } catch {
                let what = form.method == .register ? language.pick("Registration failed", "注册失败") : language.pick("Login failed", "登录失败")
                login.phase = .failed("\(what): \(describe(error))")
            }
            post.yield(.changed)
        }
    }

    // MARK: List

    /// The selectable entries of the current tab, in screen order.
    var listEntries: [ListEntry] {
        switch tab {
        case .chats:
            return sessions.rows.map { .conversation($0.id) }
        case .contacts:
            return contacts.incomingRequests.map { .request($0) }
                + (contacts.friends + contacts.groups + contacts.rooms).map { .contact($0) }
        }
    }

    private func handleList(_ key: Key) {
        let entries = listEntries
        switch key {
        case .up, .character("k"):
            selection = max(0, selection - 1)
        case .down, .character("j"):
            selection = min(max(0, entries.count - 1), selection + 1)
        case .pageUp:
            selection = max(0, selection - 5)
        case .pageDown:
            selection = min(max(0, entries.count - 1), selection + 5)
        case .tab, .backTab:
            tab = tab == .chats ? .contacts : .chats
            selection = 0
            listScroll = 0
        case .enter, .right:
            guard selection < entries.count else { return }
            switch entries[selection] {
            case .conversation(let id): open(id)
            case .contact(let contact): open(contact.conversationId)
            case .request(let request): accept(request)
            }
        case .character("y"):
            if selection < entries.count, case .request(let request) = entries[selection] { accept(request) }
        case .character("n"):
            if selection < entries.count, case .request(let request) = entries[selection] {
                Task { await contacts.decline(request) }
            }
        case .escape:
            if dialogue != nil { focus = .dialogue }
        case .character("a"):
            ask("Add friend (username):") { .addFriend(username: $0) }
        case .character("g"):
            ask("Join group (name):") { .joinGroup(name: $0) }
        case .character("G"):
            ask("New group (name):") { .createGroup(name: $0) }
        case .character("r"):
            ask("Enter room (name):") { .enterRoom(name: $0) }
        case .character("R"):
            ask("New room (name):") { .createRoom(name: $0) }
        case .ctrl("r"):
            Task { await client.reconnectNow() }
        case .character("L"):
            prompt = Prompt(title: "Log out? (y/n)", editor: LineEditor(limit: 1)) { [weak self] answer in
                if answer.lowercased() == "y" { self?.logout() }
                return nil
            }
        case .character("d"):
            openDiscover()
        case .character("p"):
            editProfile()
        case .character("v"):
            openDevices()
        case .character("/"):
            askSearch()
        case .character("q"):
            quitting = true
        default:
            break
        }
    }

    private func ask(_ title: String, _ action: @escaping (String) -> ContactsViewModel.Action) {
        prompt = Prompt(title: title) { $0.isEmpty ? nil : action($0) }
    }

    private func handlePrompt(_ key: Key) {
        guard var current = prompt else { return }
        switch key {
        case .escape:
            prompt = nil
        case .enter:
            prompt = nil
            guard let action = current.action(current.editor.text.trimmingCharacters(in: .whitespaces)) else { return }
            showFlash(language.pick("Processing…", "处理中…"), seconds: 30)
            Task {
                let opened = await contacts.perform(action)
                if let error = contacts.lastError {
                    // `banned` at a room's or group's door, worded in the reader's language.
                    showFlash(describeModeration(error), isError: true)
                } else {
                    showFlash(contacts.lastResult ?? language.pick("Done", "完成"))
                    if let opened { open(opened) }
                }
                post.yield(.changed)
            }
        default:
            if current.editor.handle(key) { prompt = current }
            // A y/n question answers on the first key.
            if current.editor.limit == 1, !current.editor.isEmpty {
                prompt = nil
                _ = current.action(current.editor.text)
            }
        }
    }

    private func accept(_ request: FriendRequest) {
        Task {
            if let conversation = await contacts.accept(request) {
                showFlash(language.pick("You are now friends with \(request.from.displayName)", "你和 \(request.from.displayName) 已经是好友了"))
                open(conversation)
            } else if let error = contacts.lastError {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
    }

    private func logout() {
        Task {
            await client.logout()
            await showLogin()
            post.yield(.changed)
        }
    }

    // MARK: Dialogue

    func open(_ conversation: ConversationID) {
        if dialogue?.conversationId != conversation {
            dialogue?.close()
            let model = DialogueViewModel(client: client, conversation: conversation, language: language)
            dialogue = model
            input.clear()
            scrollOffset = 0
            Task { await model.open() }
        }
        focus = .dialogue
    }

    private func handleDialogue(_ key: Key) {
        guard let dialogue else { return }
        switch key {
        case .escape:
            focus = .list
        case .enter:
            let text = input.text
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            if text.hasPrefix("/"), sendFile(text, to: dialogue) || runMessageAction(text, in: dialogue) || searchCommand(text, in: dialogue)
                || muteCommand(text, in: dialogue) || whoCommand(text, in: dialogue)
                || runModeration(text, in: dialogue) {
                input.clear()
                return
            }
            input.clear()
            dialogue.draft = text
            scroll(to: 0)
            Task { await dialogue.send() }
        case .up:
            scroll(to: scrollOffset + 1)
        case .down:
            scroll(to: scrollOffset - 1)
        case .pageUp:
            scroll(to: scrollOffset + max(1, dialogueHeight - 2))
        case .pageDown:
            scroll(to: scrollOffset - max(1, dialogueHeight - 2))
        case .end:
            scroll(to: 0)
            dialogue.jumpToNewest()
        case .tab:
            focus = .list
        case .ctrl("r"):
            Task { await client.reconnectNow() }
        default:
            if input.handle(key) {
                // The others see the reader typing (the view model paces the notices).
                dialogue.draft = input.text.hasPrefix("/") ? "" : input.text.trimmingCharacters(in: .whitespaces)
                dialogue.draftEdited()
            }
        }
    }

    /// Scrolls the dialogue (clamped when drawn) and tells the view model whether the newest
    /// message is in sight.
    func scroll(to offset: Int) {
        scrollOffset = max(0, offset)
        dialogue?.scrolled(toBottom: scrollOffset == 0)
    }
}
