import Foundation
import ParleyKit
import ParleyProtocol

// What the web client also offers: editing one's profile (p), the Discover deck (d), and
// sending an image or any file from disk ("/image PATH", "/send-file PATH" in a dialogue).
extension ChatApp {
    // MARK: Profile

    /// Asks for the nickname, then the signature, each prefilled; Enter on an unchanged
    /// value keeps it, an emptied one clears it.
    func editProfile() {
        Task {
            let account = await client.account
            let profile = account?.profile
            prompt = Prompt(title: language.pick("Nickname:", "昵称："), editor: LineEditor(profile?.nickname ?? "", limit: 32)) { [weak self] nickname in
                guard let self else { return nil }
                prompt = Prompt(title: language.pick("Signature:", "个性签名："), editor: LineEditor(profile?.signature ?? "", limit: 200)) { [weak self] signature in
                    self?.saveProfile(nickname: nickname, signature: signature, was: profile)
                    return nil
                }
                return nil
            }
            post.yield(.changed)
        }
    }

    private func saveProfile(nickname: String, signature: String, was profile: UserProfile?) {
        func patch(_ value: String, _ current: String?) -> FieldPatch<String> {
            value == (current ?? "") ? .unchanged : (value.isEmpty ? .clear : .set(value))
        }
        let update = ProfileUpdate(nickname: patch(nickname, profile?.nickname), signature: patch(signature, profile?.signature))
        guard update.nickname != .unchanged || update.signature != .unchanged else { return }
        showFlash(language.pick("Saving…", "保存中…"), seconds: 30)
        Task {
            do throws(ParleyError) {
                let account = try await client.updateProfile(update)
                accountName = account.profile.displayName
                showFlash(language.pick("Profile saved", "资料已保存"))
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
    }

    // MARK: Discover

    /// Shows the deck in the dialogue's place.
    func openDiscover() {
        let deck = discover ?? DiscoverViewModel(client: client)
        discover = deck
        focus = .discover
        if deck.cards.isEmpty { Task { await deck.load() } }
    }

    func handleDiscover(_ key: Key) {
        guard let deck = discover else { return }
        if let match = deck.match {
            // The match card: Enter says hi, anything else goes back to the deck.
            deck.dismissMatch()
            if key == .enter { open(match.conversationId) }
            return
        }
        switch key {
        case .escape, .tab:
            focus = .list
        case .left, .character("h"):
            swipe { await deck.pass() }
        case .right, .character("l"):
            swipe { await deck.like() }
        case .backspace, .character("u"):
            swipe { await deck.undo() }
        case .ctrl("r"):
            Task { await client.reconnectNow() }
        default:
            break
        }
    }

    private func swipe(_ action: @escaping @MainActor () async -> Void) {
        guard let deck = discover else { return }
        Task {
            await action()
            if let error = deck.lastError { showFlash(describe(error), isError: true) }
            post.yield(.changed)
        }
    }

    /// The top card (name, age, signature, hobbies) with the keys under it, or the match.
    func discoverPane(width: Int, height: Int) -> [Line] {
        var lines = [Line.spread(Line(" " + language.pick("Discover", "发现"), .bold), Line(), width: width)
            .restyled(Style(bold: true, underline: true))]
        var body: [Line] = []
        let inner = max(8, min(width - 4, 48))
        let margin = String(repeating: " ", count: max(0, (width - inner) / 2))
        if let deck = discover, let match = deck.match {
            body.append(Line.centered(Line("♥ " + language.pick("It's a match!", "互相喜欢！") + " ♥", Style.bold.colored(.magenta)), width: width))
            body.append(Line())
            body.append(Line.centered(Line(language.pick("You and \(match.user.displayName) like each other", "你和 \(match.user.displayName) 互相喜欢")), width: width))
            body.append(Line())
            body.append(Line.centered(Line(language.pick("Enter say hi · any key keep swiping", "回车 打个招呼 · 其他键 继续"), .dim), width: width))
        } else if let card = discover?.top {
            let border = Style().colored(.cyan)
            body.append(Line(margin + "╭" + String(repeating: "─", count: inner - 2) + "╮", border))
            var name = card.displayName
            if let age = card.age { name += language.pick(", \(age)", "，\(age) 岁") }
            var content = [Line(DisplayWidth.fit(" " + name, to: inner - 2), .bold)]
            if let signature = card.signature, !signature.isEmpty {
                content += DisplayWidth.wrap(signature, to: inner - 4).map { Line(DisplayWidth.fit("  " + $0, to: inner - 2)) }
            }
            if !card.hobbies.isEmpty {
                let chips = card.hobbies.prefix(5).map { "[\($0)]" }.joined(separator: " ")
                content += DisplayWidth.wrap(chips, to: inner - 4).map { Line(DisplayWidth.fit("  " + $0, to: inner - 2), .dim) }
            }
            for line in content { body.append(Line(margin + "│", border) + line + Line("│", border)) }
            body.append(Line(margin + "╰" + String(repeating: "─", count: inner - 2) + "╯", border))
            body.append(Line())
            body.append(Line.centered(Line(language.pick("← pass   u undo   like →", "← 跳过   u 撤销   喜欢 →"), .bold), width: width))
        } else if discover?.isLoading ?? true {
            body.append(Line.centered(Line(language.pick("Loading…", "加载中…"), .dim), width: width))
        } else {
            body.append(Line.centered(Line(language.pick("No one new for now — come back later", "暂时没有新的人 — 稍后再来"), .dim), width: width))
        }
        let top = max(0, (height - 1 - body.count) / 2)
        lines += Array(repeating: Line(), count: top) + body
        while lines.count < height { lines.append(Line()) }
        return Array(lines.prefix(height)).map { $0.fitted(to: width) }
    }

    // MARK: Images

    /// How long "/image" waits for the server to store the image before saying it is queued.
    static let imageAcknowledgementWait: Duration = .seconds(10)

    /// "/image PATH" (or "/file PATH"): uploads the file and sends it as an image; the
    /// server says which kinds it takes. "Image sent" only once the server has stored it.
    /// "/send-file PATH": any file, see `sendAnyFile`.
    func sendFile(_ command: String, to dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", maxSplits: 1)
        if parts.first == "/send-file" {
            return sendAnyFile(parts.count == 2 ? String(parts[1]) : nil, to: dialogue)
        }
        guard let verb = parts.first, verb == "/image" || verb == "/file" else { return false }
        guard parts.count == 2 else {
            showFlash(language.pick("Usage: /image PATH", "用法：/image 文件路径"), isError: true)
            return true
        }
        let path = (String(parts[1]).trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        guard let bytes = FileManager.default.contents(atPath: path) else {
            showFlash(language.pick("Cannot read \(path)", "无法读取 \(path)"), isError: true)
            return true
        }
        let conversation = dialogue.conversationId
        showFlash(language.pick("Uploading…", "上传中…"), seconds: 60)
        Task {
            do throws(ParleyError) {
                let media = try await client.uploadImage(bytes)
                showFlash(language.pick("Sending image…", "正在发送图片…"), seconds: 60)
                do throws(ParleyError) {
                    try await client.sendAndWait(imageMediaId: media.id, to: conversation, timeout: Self.imageAcknowledgementWait)
                    showFlash(language.pick("Image sent", "图片已发送"))
                } catch let error where !error.isTransient {
                    throw error
                } catch {
                    // Uploaded and queued: the outbox sends it when the server answers again.
                    showFlash(language.pick("Image queued — it goes out when the connection is back",
                                            "图片已排队 — 连接恢复后会发出"))
                }
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
        return true
    }

    /// "/send-file PATH": any file, streamed from disk through a resumable upload with a
    /// progress line; a picture goes out as an image, the rest as `[file name size]`.
    func sendAnyFile(_ argument: String?, to dialogue: DialogueViewModel) -> Bool {
        guard let argument, !argument.allSatisfy(\.isWhitespace) else {
            showFlash(language.pick("Usage: /send-file PATH", "用法：/send-file 文件路径"), isError: true)
            return true
        }
        let path = (argument.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: path) else {
            showFlash(language.pick("Cannot read \(path)", "无法读取 \(path)"), isError: true)
            return true
        }
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let conversation = dialogue.conversationId
        let language = self.language
        let post = self.post
        showFlash(language.pick("Uploading \(name)…", "正在上传 \(name)…"), seconds: 600)
        Task {
            do throws(ParleyError) {
                try await client.sendFile(at: url, to: conversation) { sent, total in
                    let percent = total > 0 ? sent * 100 / total : 100
                    let line = language.pick("Uploading \(name) \(percent)% (\(FileSizeText.text(sent)) of \(FileSizeText.text(total)))",
                                             "正在上传 \(name) \(percent)%（\(FileSizeText.text(sent)) / \(FileSizeText.text(total))）")
                    Task { @MainActor in
                        self.showFlash(line, seconds: 600)
                        post.yield(.changed)
                    }
                }
                showFlash(language.pick("Sent \(name)", "已发送 \(name)"))
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
        return true
    }
}
