public import Foundation
public import Observation
import ParleyProtocol

/// The sessions list (seed 000's Sessions page): one row per conversation with its last
/// message and unread count, newest first, and the connection state for the banner. It shows
/// the cache at once and follows the client's events.
@MainActor
@Observable
public final class SessionsViewModel {
    /// The rows, newest activity first.
    public private(set) var rows: [SessionRow] = []
    /// The sum of unread counts (the Chats tab's badge).
    public private(set) var totalUnread: Int64 = 0
    /// The client's connection state.
    public private(set) var connection: ConnectionState
    /// Whether the cache has been read once.
    public private(set) var isLoaded = false

    /// The banner text for `connection` (nil when online).
    public var banner: String? { connection.bannerText(language: language) }
    /// What to say when there are no rows (UI.md: every empty list says what to do next).
    public var emptyText: String {
        language.pick("No chats yet — add a friend, or join a group or room", "还没有会话 — 添加好友，或加入群聊、聊天室")
    }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private let language: ParleyLanguage
    @ObservationIgnored private let formatter: MessageTimeFormatter
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private var observation: ObservationTasks?
    @ObservationIgnored private var reloading = false
    @ObservationIgnored private var reloadAgain = false
    /// Senders whose profiles were asked for once already (a preview names them).
    @ObservationIgnored private var profilesAsked: Set<UserID> = []

    /// A sessions list of `client`; call `start()` when it appears.
    public init(client: ParleyClient, language: ParleyLanguage = .preferred,
                formatter: MessageTimeFormatter = MessageTimeFormatter(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.language = language
        self.formatter = formatter
        self.now = now
        connection = client.connectionState
    }

    /// Reads the cache and follows the client.
    public func start() async {
        if observation == nil {
            let events = client.events()
            let states = client.connectionStates()
            observation = ObservationTasks([
                Task { [weak self] in
                    for await event in events {
                        guard let self else { return }
                        if self.matters(event) { await self.reload() }
                    }
                },
                Task { [weak self] in
                    for await state in states {
                        guard let self else { return }
                        self.connection = state
                    }
                },
            ])
        }
        await reload()
    }

    /// Stops following the client.
    public func stop() {
        observation = nil
    }

    /// Asks the server for the list (pull to refresh), then shows it.
    public func refresh() async throws(ParleyError) {
        _ = try await client.conversations()
        await reload()
    }

    private func matters(_ event: ParleyEvent) -> Bool {
        switch event {
        case .messageNew, .conversationRead, .conversationsChanged, .friendAdded, .friendRemoved, .presence, .signedOut: return true
        case .messageUpdated: return true
        case .friendRequest, .meUpdated, .outboxChanged, .typing: return false
        case .receipt: return true
        case .groupRequestDecided, .roomKicked: return true
        case .groupInvited, .resources: return false
        }
    }

    /// Rebuilds the rows from the cache. Events that come while it runs cause one more pass,
    /// not one per event.
    public func reload() async {
        if reloading {
            reloadAgain = true
            return
        }
        reloading = true
        defer { reloading = false }
        repeat {
            reloadAgain = false
            await rebuild()
        } while reloadAgain
    }

    /// A group's or room's preview names its sender; one not met yet would read "ID: 4"
    /// until the conversation is opened. Each is asked for once, then the rows are rebuilt.
    private func fetchProfiles(_ ids: [UserID]) {
        profilesAsked.formUnion(ids)
        Task { [weak self, client] in
            var found = false
            for id in ids where (try? await client.user(id: id)) != nil { found = true }
            if found { await self?.reload() }
        }
    }

    private func rebuild() async {
        let summaries = (try? await client.cachedConversations()) ?? []
        let me = await client.account?.profile.id
        var names: [UserID: String] = [:]
        var unknown: [UserID] = []
        for summary in summaries {
            guard let message = summary.lastMessage else { continue }
            for id in [message.sender, message.system?.actor, message.system?.target].compactMap({ $0 }) where names[id] == nil {
                let profile = try? await client.cachedProfile(id)
                if profile == nil, !profilesAsked.contains(id) { unknown.append(id) }
                names[id] = DisplayName.of(nickname: profile?.nickname, username: profile?.username, id: id)
            }
        }
        if !unknown.isEmpty { fetchProfiles(unknown) }
        var online: [UserID: Bool] = [:]
        for summary in summaries {
            if let peer = summary.peer { online[peer.id] = await client.isOnline(peer.id) }
        }
        let at = now()
        rows = summaries.map { summary in
            var preview = ""
            if let message = summary.lastMessage {
                preview = MessagePreview.text(for: message, me: me, language: language, in: summary.kind) { names[$0] ?? "ID: \($0)" }
                if summary.kind != .user, message.kind != .system, let sender = message.sender {
                    preview = (sender == me ? language.pick("Me", "我") : names[sender] ?? "ID: \(sender)") + ": " + preview
                }
            }
            var row = SessionRow(id: summary.id, kind: summary.kind, title: MessagePreview.title(of: summary), preview: preview,
                                 timeLabel: summary.lastActivityAt > 0 ? formatter.shortLabel(for: summary.lastActivityAt, now: at, language: language) : "",
                                 unread: summary.unread, badge: MessagePreview.badge(summary.unread),
                                 avatar: summary.peer?.avatar ?? summary.avatar, isOnline: summary.peer.map { online[$0.id] ?? false } ?? false,
                                 lastActivityAt: summary.lastActivityAt)
            row.mentions = summary.unread > 0 ? summary.mentions ?? 0 : 0
            row.isMuted = summary.mute?.isActive(at: Int64(at.timeIntervalSince1970 * 1000)) ?? false
            return row
        }
        totalUnread = summaries.reduce(0) { $0 + $1.unread }
        isLoaded = true
    }
}
