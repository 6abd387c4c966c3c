public import Foundation
public import Observation
public import ParleyProtocol

/// One open conversation (seed 000's Dialogue page): messages by day, notices apart, pending
/// sends, older pages on demand, and a "new message" indicator when something arrives while
/// the reader is scrolled up.
///
/// The view tells it where the reader is (`scrolled(toBottom:)`); it marks the conversation
/// read while the newest message is in sight.
@MainActor
@Observable
public final class DialogueViewModel {
    /// The conversation.
    public let conversationId: ConversationID
    /// The header: the peer's display name, or the group's or room's name.
    public private(set) var title = ""
    /// 1:1, group or room (nil until known).
    public private(set) var kind: ConversationKind?
    /// The messages, by day.
    public private(set) var sections: [DialogueSection] = []
    /// The reader's messages still in the outbox.
    public private(set) var pending: [PendingBubble] = []
    /// Whether older messages exist.
    public private(set) var hasMoreHistory = false
    /// Whether an older page is being fetched.
    public private(set) var isLoadingHistory = false
    /// Messages from others that arrived while the reader was scrolled up.
    public private(set) var newMessageCount = 0
    /// The last failure (history, send), for an alert.
    public private(set) var lastError: ParleyError?
    /// What the reader is typing.
    public var draft = ""
    /// The ticks of the reader's messages and who is typing.
    public private(set) var receipts = DialogueReceipts()

    /// The line under the header while someone types ("Alice is typing…"); nil otherwise.
    public var typingLine: String? {
        receipts.typingLine(language: language) { [profiles] id in
            DisplayName.of(nickname: profiles[id]?.nickname, username: profiles[id]?.username, id: id)
        }
    }

    /// The ticks of one of the reader's own 1:1 messages; nil for others' messages.
    public func deliveryState(of message: Message) -> MessageDeliveryState? {
        receipts.state(of: message, me: me, kind: kind)
    }

    /// The ticks of one of the reader's own 1:1 bubbles; nil for others'.
    public func deliveryState(of bubble: DialogueItem.Bubble) -> MessageDeliveryState? {
        receipts.state(seq: bubble.seq, isMine: bubble.isSelf, kind: kind)
    }

    /// The reader changed the draft: the others see them typing (repeated at most every
    /// `typingRefresh`, within the server's timeout); an emptied draft stops it.
    public func draftEdited() {
        let conversation = conversationId
        if draft.isEmpty {
            guard lastTypingSent != nil else { return }
            lastTypingSent = nil
            Task { [client] in try? await client.stopTyping(in: conversation) }
            return
        }
        let at = now()
        if let last = lastTypingSent, at.timeIntervalSince(last) < Self.typingRefresh { return }
        lastTypingSent = at
        Task { [client] in try? await client.startTyping(in: conversation) }
    }

    /// How often a continuing typist tells the server again (its timeout is 6 s by default).
    static let typingRefresh: TimeInterval = 3

    /// Show the "new message" button.
    public var showsNewMessageIndicator: Bool { newMessageCount > 0 }
    /// The input's placeholder (seed 000: "say something…").
    public var placeholder: String { language.pick("Say something…", "说点什么…") }
    /// All items in order (for views that do not show day headers).
    public var items: [DialogueItem] { sections.flatMap(\.items) }
    /// The newest message's seq (0 when empty).
    public var newestSeq: Int64 { messages.last?.seq ?? 0 }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private let language: ParleyLanguage
    @ObservationIgnored private let formatter: MessageTimeFormatter
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private var messages: [Message] = []
    @ObservationIgnored private var profiles: [UserID: UserProfile] = [:]
    @ObservationIgnored private var resolving: Set<UserID> = []
    @ObservationIgnored private var me: UserID?
    @ObservationIgnored private(set) var isAtBottom = true
    @ObservationIgnored private var isVisible = false
    @ObservationIgnored private var readUpTo: Int64 = 0
    @ObservationIgnored private var observation: ObservationTasks?
    @ObservationIgnored private var pendingEntries: [OutboxEntry]?
    @ObservationIgnored private var lastTypingSent: Date?

    /// A dialogue of `conversation`; call `open()` when it appears.
    public init(client: ParleyClient, conversation: ConversationID, language: ParleyLanguage = .preferred,
                formatter: MessageTimeFormatter = MessageTimeFormatter(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        conversationId = conversation
        self.language = language
        self.formatter = formatter
        self.now = now
    }

    /// The message at `seq`, as the dialogue holds it (for actions on it).
    public func message(seq: Int64) -> Message? {
        messages.first { $0.seq == seq }
    }

    /// Shows the cached messages at once, then follows the client's events and fetches the
    /// newest page from the server when online; marks the conversation read.
    public func open() async {
        isVisible = true
        // Listen first: a change announced while the cache is being read must not be missed.
        startObserving()
        me = await client.account?.profile.id
        await refreshTitle()
        merge((try? await client.cachedMessages(in: conversationId, limit: 50)) ?? [])
        hasMoreHistory = (messages.first?.seq ?? 1) > 1
        await reloadPending()
        rebuild()
        if client.connectionState.isOnline, let page = try? await client.history(in: conversationId, limit: 50) {
            // The newest page replaces a cache that may have a gap before it.
            if let first = page.messages.first, let last = messages.last, first.seq > last.seq + 1 { messages.removeAll() }
            merge(page.messages)
            hasMoreHistory = page.hasMore || (messages.first?.seq ?? 1) > 1
            receipts.adopt(read: page.peerReadSeq, delivered: page.peerDeliveredSeq)
            rebuild()
        }
        markReadIfInSight()
    }

    /// The conversation's kind, looked up in the cache first if the dialogue does not know it
    /// yet (a command typed the moment the dialogue opened); nil if the cache has not got it.
    public func knownKind() async -> ConversationKind? {
        if kind == nil { await refreshTitle() }
        return kind
    }

    /// Stops following events (the dialogue was dismissed).
    public func close() {
        isVisible = false
        observation = nil
    }

    /// The view reports whether the newest message is in sight.
    public func scrolled(toBottom atBottom: Bool) {
        isAtBottom = atBottom
        if atBottom {
            newMessageCount = 0
            markReadIfInSight()
        }
    }

    /// The "new message" button: the view scrolls to the newest message.
    public func jumpToNewest() {
        scrolled(toBottom: true)
    }

    /// Sends the draft (through the outbox) and clears it.
    public func send() async {
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        // Cleared before the await, so that a second tap cannot send the same draft again.
        draft = ""
        sentDraft()
        isAtBottom = true
        do {
            try await client.send(text: text, to: conversationId)
        } catch {
            draft = text
            lastError = error
        }
    }

    /// Fetches the page before the oldest message shown.
    public func loadOlder() async {
        guard hasMoreHistory, !isLoadingHistory else { return }
        isLoadingHistory = true
        defer { isLoadingHistory = false }
        do {
            let page = try await client.history(in: conversationId, before: messages.first?.seq, limit: 30)
            merge(page.messages)
            hasMoreHistory = page.hasMore
            rebuild()
        } catch {
            lastError = error
        }
    }

    /// Sends a refused message again.
    public func retry(_ pending: PendingBubble) async {
        do { try await client.retry(pending.id) } catch { lastError = error }
    }

    /// Gives up a pending or refused message.
    public func discard(_ pending: PendingBubble) async {
        do { try await client.discard(pending.id) } catch { lastError = error }
    }

    /// Recomputes the time labels (they change as messages grow older than four hours).
    public func refreshTimeLabels() {
        rebuild()
    }

    // MARK: Events

    private func startObserving() {
        guard observation == nil else { return }
        let events = client.events()
        observation = ObservationTasks([Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }])
    }

    private func handle(_ event: ParleyEvent) async {
        switch event {
        case .messageNew(let message) where message.conversationId == conversationId:
            if let sender = message.sender { _ = receipts.stoppedTyping(sender) }
            receive(message)
        case .receipt(let receipt) where receipt.conversationId == conversationId:
            receipts.apply(receipt)
        case .typing(let notice) where notice.conversationId == conversationId:
            if receipts.apply(notice) { resolveNames(including: notice.userId) }
        case .messageUpdated(let message) where message.conversationId == conversationId:
            // An edit, recall, reaction or hide: the message in its new state, in place.
            merge([message])
            rebuild()
        case .outboxChanged:
            await reloadPending()
        case .conversationsChanged, .friendAdded:
            await refreshTitle()
        case .meUpdated(let account):
            me = account.profile.id
            rebuild()
        default:
            break
        }
    }

    /// A message that arrived (live, through sync, or as the acknowledgement of a send).
    func receive(_ message: Message) {
        let newest = newestSeq
        merge([message])
        if message.seq > newest {
            if isAtBottom && isVisible {
                markReadIfInSight()
            } else if message.sender != me || me == nil {
                newMessageCount += 1
            }
        }
        rebuild()
    }

    // MARK: Helpers

    private func merge(_ incoming: [Message]) {
        guard !incoming.isEmpty else { return }
        var bySeq = Dictionary(messages.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
        for message in incoming where message.conversationId == conversationId { bySeq[message.seq] = message }
        messages = bySeq.values.sorted { $0.seq < $1.seq }
    }

    private func rebuild() {
        let layout = DialogueLayout(me: me, language: language, formatter: formatter, kind: kind)
        let at = now()
        sections = layout.sections(for: messages, now: at) { [profiles] id in
            DisplayName.of(nickname: profiles[id]?.nickname, username: profiles[id]?.username, id: id)
        }
        resolveNames()
        if let pendingEntries { pending = pendingEntries.map { layout.pending($0, now: at) } }
    }

    private func reloadPending() async {
        pendingEntries = (try? await client.outbox(in: conversationId)) ?? []
        rebuild()
    }

    private func refreshTitle() async {
        if let summary = try? await client.cachedConversation(conversationId) {
            title = MessagePreview.title(of: summary)
            kind = summary.kind
            receipts.adopt(read: summary.peerReadSeq, delivered: summary.peerDeliveredSeq)
            if let peer = summary.peer { profiles[peer.id] = peer }
        } else if let group = try? await client.cachedGroup(conversationId) {
            // Just joined: the sessions list has not caught up yet, the group's info has.
            title = group.name
            kind = .group
        } else if let room = try? await client.cachedRooms().first(where: { $0.id == conversationId }) {
            title = room.name
            kind = .room
        }
    }

    /// Looks up the names of senders and notice actors not known yet, then lays out again.
    private func resolveNames(including extra: UserID? = nil) {
        var wanted = Set<UserID>(extra.map { [$0] } ?? [])
        for message in messages {
            if let sender = message.sender { wanted.insert(sender) }
            if let actor = message.system?.actor { wanted.insert(actor) }
            if let target = message.system?.target { wanted.insert(target) }
        }
        let missing = wanted.subtracting(profiles.keys).subtracting(resolving).subtracting(me.map { [$0] } ?? [])
        guard !missing.isEmpty else { return }
        resolving.formUnion(missing)
        Task { [weak self, client] in
            var found: [UserProfile] = []
            for id in missing {
                if let profile = await client.profile(of: id) { found.append(profile) }
            }
            guard let self, !found.isEmpty else { return }
            for profile in found { self.profiles[profile.id] = profile }
            self.rebuild()
        }
    }

    private func markReadIfInSight() {
        guard isVisible, isAtBottom, kind != .room, let newest = messages.last?.seq, newest > readUpTo else { return }
        readUpTo = newest
        let conversation = conversationId
        Task { [client] in _ = try? await client.markRead(conversation, upTo: newest) }
    }
}

extension DialogueViewModel {
    /// Own sends end the reader's typing on the server at once.
    func sentDraft() {
        guard lastTypingSent != nil else { return }
        lastTypingSent = nil
        let conversation = conversationId
        Task { [client] in try? await client.stopTyping(in: conversation) }
    }
}
