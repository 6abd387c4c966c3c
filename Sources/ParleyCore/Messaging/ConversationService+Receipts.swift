public import ParleyProtocol

// Receipts (docs/protocol.md, "Receipts and typing"): derived from the members' read and
// delivered markers, never stored per message. A 1:1 sender hears one event per move of the
// other person's marker; a group's counts are computed on request, so a group of 1,000 costs
// nothing per message and one pass over its members per `message.readers`.
extension ConversationService {
    /// A move of a 1:1 marker, for the other person.
    struct Receipt: Sendable {
        let to: UserID
        let state: ReceiptState
    }

    /// Tells the other person of a 1:1 conversation that their messages were delivered or read.
    func announce(_ receipt: Receipt?) {
        guard let receipt else { return }
        context.delivery.deliver(.conversationReceipt(receipt.state), to: receipt.to, excluding: nil)
    }

    /// Whether two people see each other's read state: only when both share their own.
    static func sharesReadReceipts(_ a: UserID, _ b: UserID, reader: StoreReader) throws -> Bool {
        try reader.privacy(of: a).readReceipts && reader.privacy(of: b).readReceipts
    }

    /// The other person's read marker (nil unless both share read receipts) and delivered
    /// marker in a 1:1 conversation; nil elsewhere. `sharing`, when known, is whether `user`
    /// shares read receipts (a list of many conversations reads it once).
    static func peerMarkers(in conversation: StoredConversation, of user: UserID, sharing: Bool? = nil,
                            reader: StoreReader) throws -> (Int64?, Int64?) {
        guard conversation.kind == .user, let a = conversation.userA, let b = conversation.userB else { return (nil, nil) }
        let peer = a == user ? b : a
        // Read implies delivered (a sender's own messages count as read, and markers from
        // before delivery was kept): delivered is shown as at least the read marker.
        let read = try reader.member(of: conversation.id, user: peer)?.readSeq
        let delivered = max(try reader.deliveredSeq(in: conversation.id, user: peer), read ?? 0)
        let shared = try (sharing ?? reader.privacy(of: user).readReceipts) && reader.privacy(of: peer).readReceipts
        guard shared else { return (nil, delivered) }
        return (read, delivered)
    }

    /// A 1:1 send moved its recipient's delivered marker (in its own write): noted
    /// (`DeliveredMarks`) before the message is handed to the recipient, so that its streams
    /// know (`deliveredMarkerMoved`); what to tell the sender (`tellDelivered`) after.
    func noteDelivered(_ state: ReceiptState, to sender: UserID) -> DeliveredMarks.Decision {
        guard let seq = state.deliveredSeq else { return .stale }
        return deliveredMarks.note(seq, in: state.conversationId, to: state.userId, notify: sender)
    }

    /// Whether a send's own write moved `user`'s delivered marker in `conversation` to `seq`
    /// or past it, as far as this server remembers (`DeliveredMarks`, a couple of seconds):
    /// a gateway stream that hands the message over then has no marker of its own to move.
    /// False when it cannot tell.
    public func deliveredMarkerMoved(for user: UserID, in conversation: ConversationID, through seq: Int64) -> Bool {
        deliveredMarks.covers(seq, in: conversation, to: user)
    }

    /// The sender hears of a delivered marker its send moved (`noteDelivered`'s decision): at
    /// once or, in a burst, coalesced into one receipt a moment later.
    func tellDelivered(_ state: ReceiptState, to sender: UserID, as decision: DeliveredMarks.Decision) {
        switch decision {
        case .stale, .deferred(startFlush: false):
            return
        case .tellNow:
            announce(Receipt(to: sender, state: state))
        case .deferred(startFlush: true):
            let window = deliveredMarks.window
            Task { [self] in
                // Bounded: each flush tells what piled up during the window before it; it
                // ends on the first that finds nothing.
                while true {
                    try? await Task.sleep(for: window)
                    let batch = deliveredMarks.take()
                    if batch.isEmpty { return }
                    for (key, mark) in batch {
                        announce(Receipt(to: mark.notify, state: ReceiptState(conversationId: key.conversation, userId: key.user,
                                                                             deliveredSeq: mark.seq)))
                    }
                }
            }
        }
    }

    /// Moves `user`'s delivered marker in each 1:1 conversation among `messages` to its
    /// newest one there (`kinds` says which conversations are 1:1).
    func markDelivered(_ messages: [Message], to user: UserID, kinds: [ConversationSummary]) async {
        let direct = Set(kinds.filter { $0.kind == .user }.map(\.id))
        var newest: [ConversationID: Int64] = [:]
        for message in messages where direct.contains(message.conversationId) {
            newest[message.conversationId] = max(newest[message.conversationId] ?? 0, message.seq)
        }
        await markDelivered(newest.map { ($0.key, $0.value) }, to: user)
    }

    /// Moves `user`'s delivered marker in a 1:1 conversation to `seq`, for a gateway whose
    /// client acknowledged delivery itself (an XMPP `<received/>`) or that handed the
    /// message over; the other person hears of it if it moved. Runs on the caller's executor
    /// up to the store's queue and back (`nonisolated(nonsending)`): a Jabber session moves
    /// its user's marker after every message it hands over, from its loop.
    public nonisolated(nonsending) func moveDeliveredMarker(for user: UserID, in conversation: ConversationID, to seq: Int64) async {
        await markDelivered([(conversation, seq)], to: user)
    }

    /// `user`'s own delivered markers in `conversations` (0 where nothing was delivered),
    /// for a gateway that hands over at sign-in only what no connection got yet.
    public func deliveredMarkers(of user: UserID, in conversations: [ConversationID]) async throws(ProtocolError) -> [ConversationID: Int64] {
        try await context.gateway.read { reader in
            var markers: [ConversationID: Int64] = [:]
            for id in conversations { markers[id] = try reader.deliveredSeq(in: id, user: user) }
            return markers
        }
    }

    /// Moves `user`'s delivered markers (1:1 conversations only) and tells each other person,
    /// once per marker that moved. A failure leaves the ticks where they were: the next
    /// delivery moves them.
    nonisolated(nonsending) func markDelivered(_ marks: [(ConversationID, Int64)], to user: UserID) async {
        await markDelivered(marks.map { DeliveredMark(user: user, conversation: $0.0, seq: $0.1) })
    }

    /// A recipient's delivered marker to move in a 1:1 conversation.
    struct DeliveredMark: Sendable {
        let user: UserID
        let conversation: ConversationID
        let seq: Int64
    }

    /// Moves the delivered markers of any number of recipients in one store write, and tells
    /// each other person once per marker that moved.
    nonisolated(nonsending) func markDelivered(_ marks: [DeliveredMark]) async {
        guard !marks.isEmpty else { return }
        let receipts = try? await context.gateway.write { writer -> [Receipt] in
            try marks.compactMap { mark -> Receipt? in
                let before = try writer.deliveredSeq(in: mark.conversation, user: mark.user)
                guard mark.seq > before, let conversation = try writer.conversation(id: mark.conversation), conversation.kind == .user,
                      let a = conversation.userA, let b = conversation.userB else { return nil }
                let marker = try writer.markDelivered(conversation: mark.conversation, user: mark.user, upTo: mark.seq)
                guard marker > before else { return nil }
                return Receipt(to: a == mark.user ? b : a,
                               state: ReceiptState(conversationId: mark.conversation, userId: mark.user, deliveredSeq: marker))
            }
        }
        for receipt in receipts ?? [] { announce(receipt) }
    }

    /// Who of a group has read the message at `seq` (the members whose read marker reached
    /// it, the sender left out), counted over all members, with a page of their profiles.
    public func readers(for user: UserID, _ parameters: ReadersParameters) async throws(ProtocolError) -> ReaderPage {
        let after = try PageKey.parse(parameters.cursor)
        let limit = context.listLimit(parameters.limit)
        let budget = context.rules.maxAnswerBytes
        let batch = context.rules.maxMemberPage
        return try await context.gateway.read { reader in
            let id = parameters.conversationId
            let (_, member) = try ConversationAccess.group(id, member: user, reader: reader)
            // What came before a newcomer's join is not theirs to ask about.
            guard parameters.seq > member.historyFrom, let message = try reader.message(in: id, seq: parameters.seq) else {
                throw ProtocolError(.notFound, "no message with this seq", field: "seq")
            }
            var readers: [UserID] = []
            var others = 0
            var cursor: UserID?
            // One pass over the members in batches; bounded by the group's size (each batch
            // moves the cursor on, a short one is the last).
            while true {
                let members = try reader.members(of: id, after: cursor, limit: batch)
                for member in members where member.userID != message.sender {
                    others += 1
                    if member.readSeq >= parameters.seq { readers.append(member.userID) }
                }
                guard members.count == batch, let last = members.last?.userID else { break }
                cursor = last
            }
            let page = try MessagingContext.userPage(readers, after: after, limit: limit, budget: budget, reader: reader)
            return ReaderPage(count: readers.count, of: others, readers: page.users, nextCursor: page.nextCursor)
        }
    }
}

extension ConversationService {
    /// The user's privacy choices.
    public func privacy(of user: UserID) async throws(ProtocolError) -> PrivacySettings {
        try await context.gateway.read { reader in try reader.privacy(of: user) }
    }

    /// Replaces the user's privacy choices. Turning read receipts off takes effect at once
    /// both ways: the others' markers are no longer shown to the user either.
    public func setPrivacy(of user: UserID, _ settings: PrivacySettings) async throws(ProtocolError) -> PrivacySettings {
        try await context.gateway.write { writer in try writer.savePrivacy(settings, for: user) }
        return settings
    }
}
