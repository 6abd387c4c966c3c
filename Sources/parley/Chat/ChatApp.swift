import Dispatch
import Foundation
import Observation
import ParleyKit
import ParleyProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `parley chat`: a full-screen terminal client on ParleyKit's view models. Everything runs on
/// the main actor; keys (from a reader thread), resizes (SIGWINCH), a clock tick and view
/// model changes (Observation) all arrive as `ChatInput`s on one stream, handled in order.
@MainActor
final class ChatApp {
    /// What wakes the loop.
    enum ChatInput: Sendable {
        case keys([Key])
        case resize
        case tick
        /// Something the last frame showed has changed.
        case changed
        case signedOut
        case quit
    }

    /// What the screen shows.
    enum Mode {
        case login
        case main
    }

    /// The list pane's two tabs.
    enum Tab {
        case chats, contacts
    }

    /// Where keys go on the main screen.
    enum Focus {
        case list, dialogue, discover, devices, search
    }

    /// A one-line question at the bottom ("Add friend (username):").
    struct Prompt {
        var title: String
        var editor = LineEditor(limit: 64)
        var action: (String) -> ContactsViewModel.Action?
    }

    let client: ParleyClient
    /// A debugging trace (`PARLEY_CHAT_LOG`), if asked for.
    let log: ChatLog?
    let terminal: Terminal
    let screen: Screen
    let language: ParleyLanguage
    let inputs: AsyncStream<ChatInput>
    let post: AsyncStream<ChatInput>.Continuation

    var mode = Mode.login
    var login = LoginForm()
    var tab = Tab.chats
    var focus = Focus.list
    var selection = 0
    var listScroll = 0
    let sessions: SessionsViewModel
    let contacts: ContactsViewModel
    var dialogue: DialogueViewModel?
    /// The Discover deck, once opened.
    var discover: DiscoverViewModel?
    /// The account's signed-in devices while their pane is open (nil: loading).
    var devices: [SessionInfo]?
    /// The last message search ("/" on the list), kept while its pane is left for a hit.
    var search: ChatSearch?
    var input = LineEditor()
    /// Lines scrolled up from the newest message (0: at the bottom).
    var scrollOffset = 0
    var prompt: Prompt?
    /// A short message on the status line, and when it goes away.
    var flash: (text: String, isError: Bool, until: Date)?
    /// When the connection state last changed (for the retry countdown).
    var stateSeen: (state: ConnectionState, at: Date) = (.offline(reason: .stopped, retryIn: nil), Date())
    var quitting = false
    /// Kept alive for the app's lifetime.
    var signalSources: [DispatchSourceSignal] = []
    var loadingOlder = false
    /// Rows of the dialogue's message area in the last frame (for paging).
    var dialogueHeight = 10
    /// The signed-in user's display name, for the header.
    var accountName: String?

    init(client: ParleyClient, terminal: Terminal, colors: Bool, language: ParleyLanguage, log: ChatLog?) {
        self.client = client
        self.log = log
        self.terminal = terminal
        self.language = language
        screen = Screen(terminal: terminal, colors: colors)
        (inputs, post) = AsyncStream.makeStream(of: ChatInput.self)
        sessions = SessionsViewModel(client: client, language: language)
        contacts = ContactsViewModel(client: client, language: language)
    }

    /// Runs until the user quits.
    func run() async {
        startInputs()
        if await client.isSignedIn {
            await enterMain()
        } else {
            await showLogin()
        }
        render()
        for await input in inputs {
            switch input {
            case .keys(let keys):
                for key in keys { handle(key) }
            case .resize:
                screen.invalidate()
            case .tick:
                if let flash, flash.until < Date() { self.flash = nil }
                dialogue?.refreshTimeLabels()
            case .changed:
                break
            case .signedOut:
                if mode == .main { await showLogin() }
            case .quit:
                quitting = true
            }
            if quitting { break }
            render()
        }
        await client.stop()
        terminal.restore()
    }

    /// Keys, signals, the clock and sign-out events, all into `inputs`.
    private func startInputs() {
        let post = self.post
        KeyReader.start(deliver: { post.yield(.keys($0)) }, finished: { post.yield(.quit) })
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { post.yield(.resize) }
        resize.resume()
        signalSources.append(resize)
        // The server blocks these in `serve`; here they end the client cleanly (the terminal is
        // put back by `run` on the way out).
        for number in [SIGTERM, SIGHUP, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { post.yield(.quit) }
            source.resume()
            signalSources.append(source)
        }
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                post.yield(.tick)
            }
        }
        let events = client.events()
        let states = client.connectionStates()
        let log = self.log
        Task {
            for await state in states { log?.write("state \(state)") }
        }
        Task {
            for await event in events {
                log?.write("event \(event)")
                switch event {
                case .signedOut: post.yield(.signedOut)
                case .meUpdated: post.yield(.changed)
                case .groupInvited, .groupRequestDecided, .roomKicked:
                    if let text = await self.governanceNotice(event) { self.showFlash(text, seconds: 12) }
                    post.yield(.changed)
                default: break
                }
            }
        }
    }

    // MARK: Modes

    func showLogin() async {
        mode = .login
        dialogue?.close()
        dialogue = nil
        sessions.stop()
        contacts.stop()
        login = LoginForm()
        if let last = await client.knownLogins().first {
            login.lastUser = last.username
            login.username = LineEditor(last.username, limit: 32)
            login.focus = 1
        }
    }

    func enterMain() async {
        mode = .main
        accountName = await client.account?.profile.displayName
        tab = .chats
        focus = .list
        selection = 0
        listScroll = 0
        await client.start()
        await sessions.start()
        await contacts.start()
    }

    // MARK: Drawing

    /// Draws a frame, tracking which observable values it read so that a change to any of
    /// them posts `.changed` and brings the next frame.
    func render() {
        let post = self.post
        withObservationTracking {
            draw()
        } onChange: {
            post.yield(.changed)
        }
    }

    func showFlash(_ text: String, isError: Bool = false, seconds: TimeInterval = 5) {
        log?.write("flash \(text)")
        flash = (text, isError, Date().addingTimeInterval(seconds))
    }

    /// A user-facing sentence for a failure.
    func describe(_ error: ParleyError) -> String {
        switch error {
        case .server(let problem): return problem.message
        case .offline: return language.pick("No connection — try again when it is back", "网络未连接 — 请稍后再试")
        default: return error.message
        }
    }
}
