public import ParleyProtocol

/// Messages, history, the sessions list with unread counts, read markers and sync.
public final class ConversationService: Sendable {
    let context: MessagingContext
    /// Edit, recall, delete for me, reactions, forward and pins.
    public let actions: MessageActionService
    /// Who is typing where (in memory only).
    public let typing: TypingService
    /// Delivered receipts of 1:1 sends waiting to be told to their senders.
    let deliveredMarks = DeliveredMarks()
    /// Full-text search (`message.search`).
    public let search: MessageSearchService
    /// Who may see whom online or last seen (`user.lastSeen`).
    public let lastSeen: LastSeenService

    public init(context: MessagingContext) {
        self.context = context
        actions = MessageActionService(context: context)
        typing = TypingService(context: context)
        search = MessageSearchService(context: context)
        lastSeen = LastSeenService(context: context)
    }

    /// The longest client id `send` accepts (gateways that take ids from their own protocol
    /// check against it).
    public var clientIDLimit: TextLimit { context.rules.text[.clientId] }

    /// Stores a message and delivers it. The result comes back only after the message is
    /// durably stored. A retry with the same client id returns the stored message and
    /// delivers nothing again.
    ///
    /// Runs on the caller's executor from start to end (`nonisolated(nonsending)`): a session
    /// pinned to its event loop checks, queues the write, and announces the commit there,
    /// with no hop between executors (the hot 1:1 path).
    public nonisolated(nonsending) func send(from user: UserID, _ parameters: SendParameters, connection: ConnectionToken?) async throws(ProtocolError) -> SentMessage {
        try check(parameters)
        return announce(try await context.gateway.write(storing(parameters, from: user)), connection: connection)
    }

    /// `send` for a caller that is not a task (a connection's event loop: the native 1:1 hot
    /// path): checks at once and queues the write; once it is committed, `hop` brings the rest
    /// back to the caller's thread in one step from the writer, where the message is announced
    /// (deliveries, the delivered receipt, push notifications, the cluster's publication) and
    /// then `completion` is called, once. The same checks, write and announcement as `send`,
    /// so the same guarantees: nothing is delivered before the commit, a retry with the same
    /// client id is answered with the stored message and delivers nothing again, and a
    /// refusal carries its code. A refusal found before the write calls `completion` at once,
    /// on the caller's thread, before this returns.
    public func send(from user: UserID, _ parameters: SendParameters, connection: ConnectionToken?, hop: any CompletionHop,
                     completion: @escaping @Sendable (Result<SentMessage, ProtocolError>) -> Void) {
        do throws(ProtocolError) {
            try check(parameters)
        } catch {
            completion(.failure(error))
            return
        }
        let pending = PendingSend(service: self, connection: connection, hop: hop, completion: completion)
        // Closures that capture the one object only: no context of their own each.
        context.gateway.write(storing(parameters, from: user)) { outcome in pending.committed(outcome) }
    }

    /// One send started with no task, from its write's commit to its caller's completion:
    /// what the writer's completion and the hop back to the caller's thread carry, in one
    /// object (a closure for each step allocated its own context, two a message).
    private final class PendingSend: @unchecked Sendable {
        // Invariant: `outcome` is set once, on the writer thread, before `hop` queues its
        // announcement, which alone reads it, on the caller's thread, after the queue's
        // hand-over (a lock) orders the two.
        private let service: ConversationService
        private let connection: ConnectionToken?
        private let hop: any CompletionHop
        private let completion: @Sendable (Result<SentMessage, ProtocolError>) -> Void
        private var outcome: Result<Stored, any Error>?

        init(service: ConversationService, connection: ConnectionToken?, hop: any CompletionHop,
             completion: @escaping @Sendable (Result<SentMessage, ProtocolError>) -> Void) {
            self.service = service
            self.connection = connection
            self.hop = hop
            self.completion = completion
        }

        /// The write's outcome, on the writer thread: only handed on.
        func committed(_ outcome: Result<Stored, any Error>) {
            self.outcome = outcome
            hop.hop { self.finish() }
        }

        /// On the caller's thread: the message announced, then the caller told. The outcome is
        /// moved out, not copied (a copy of the stored message, field by field, and its release).
        private func finish() {
            switch outcome.take() {
            case .success(let stored)?: completion(.success(service.announce(stored, connection: connection)))
            case .failure(let error)?: completion(.failure(StoreGateway.translate(error)))
            case nil: preconditionFailure("a send finished before its write")
            }
        }
    }

    /// What `send` stored: the message, the members read while storing it, and whether it
    /// is new (false for a retry, which is answered but not delivered again); `unquoted`, the
    /// members who may not see the message it replies to (they get it with the preview gone);
    /// `delivered`, the 1:1 recipient's delivered marker when the write moved it.
    private typealias Stored = (message: Message, snapshot: MembershipCache.Snapshot, isNew: Bool, unquoted: [UserID],
                                delivered: ReceiptState?)

    /// Refuses parameters no conversation would take, before anything is queued.
    private func check(_ parameters: SendParameters) throws(ProtocolError) {
        let rules = context.rules
        try rules.text.validate(parameters.clientId, as: .clientId)
        switch parameters.kind {
        case .text:
            guard let text = parameters.text, !text.allSatisfy(\.isWhitespace) else {
                throw ProtocolError(.invalidField, "a text message needs text", field: "text")
            }
            try rules.text.validate(text, as: .text)
        case .image:
            guard parameters.mediaId?.isEmpty == false else {
                throw ProtocolError(.missingField, "an image message needs a mediaId", field: "mediaId")
            }
        case .voice:
            try VoiceCheck.parameters(parameters)
        case .file:
            guard parameters.mediaId?.isEmpty == false else {
                throw ProtocolError(.missingField, "a file message needs a mediaId", field: "mediaId")
            }
            if let caption = parameters.text { try rules.text.validate(caption, as: .text) }
            if let name = parameters.name, name.utf8.count > FileName.maxInputBytes {
                throw ProtocolError(.invalidField, "a file name has at most \(FileName.maxInputBytes) bytes", field: "name")
            }
        case .system:
            throw ProtocolError(.invalidField, "system messages come from the server only", field: "kind")
        }
        if let mentions = parameters.mentions, mentions.count > rules.maxMentions {
            throw ProtocolError(.invalidField, "at most \(rules.maxMentions) mentions in one message", field: "mentions")
        }
    }

    /// The write of a checked send: permission, the insert (or the earlier message of a retry).
    private func storing(_ parameters: SendParameters, from user: UserID) -> @Sendable (StoreWriter) throws -> Stored {
        let now = context.clock()
        let rooms = context.rooms
        let cache = context.membership
        let excerptLimit = context.rules.replyExcerptCharacters
        let delivery = context.delivery
        let memberPage = context.rules.maxMemberPage
        return { writer in
            let snapshot = try ConversationAccess.postable(parameters.conversationId, by: user, writer: writer,
                                                          rooms: rooms, cache: cache, now: now)
            let conversation = snapshot.conversation
            let extras = try Self.replyAndMentions(parameters, by: user, snapshot: snapshot, writer: writer, excerptLimit: excerptLimit)
            // A text message goes straight to the insert: a retry is caught by the unique
            // (sender, client id) index below, which saves a query on every send. An image is
            // looked up first, so a retry is answered even if its media has gone meanwhile.
            if parameters.kind != .text, let existing = try writer.message(sender: user, clientID: parameters.clientId) {
                guard existing.conversationId == parameters.conversationId else {
                    throw ProtocolError(.invalidField, "this client id was used for another conversation", field: "clientId")
                }
                return (existing, snapshot, false, [], nil)
            }
            var image: ImageAttachment?
            if parameters.kind == .image, let mediaID = parameters.mediaId {
                guard let media = try writer.media(id: mediaID), media.ownerID == user, case .image = media.type else {
                    throw ProtocolError(.invalidField, "no image of yours with that mediaId", field: "mediaId")
                }
                image = ImageAttachment(mediaId: media.id, url: media.info.url, width: media.width, height: media.height,
                                        thumbnail: ThumbnailRule.path(for: media))
                try writer.linkMedia(id: media.id, to: conversation, at: now)
            }
            var voice: VoiceAttachment?
            if parameters.kind == .voice, let mediaID = parameters.mediaId {
                guard let media = try writer.media(id: mediaID), media.ownerID == user else {
                    throw ProtocolError(.invalidField, "no recording of yours with that mediaId", field: "mediaId")
                }
                voice = try VoiceCheck.attachment(media, durationMs: parameters.durationMs ?? 0, waveform: parameters.waveform ?? [])
                try writer.linkMedia(id: media.id, to: conversation, at: now)
            }
            var file: FileAttachment?
            if parameters.kind == .file, let mediaID = parameters.mediaId {
                file = try Self.attachment(mediaID, named: parameters.name, by: user, writer: writer)
                try writer.linkMedia(id: mediaID, to: conversation, at: now)
            }
            let message: Message
            do {
                // The sender has read what they sent (rooms keep no read markers).
                var new = NewMessage(
                    conversationID: conversation, sender: user, clientID: parameters.clientId, kind: parameters.kind,
                    text: Self.storedText(parameters), image: image, createdAt: now,
                    replyTo: extras.reply, mentions: extras.mentions, mentionsAll: extras.all ? true : nil)
                new.voice = voice
                new.file = file
                var appended = try writer.appendMessage(new, markingReadBySender: snapshot.shape.kind != .room)
                if extras.all || extras.mentions != nil {
                    try writer.insertMentions(in: conversation, seq: appended.seq, sender: user,
                                              users: (extras.mentions ?? []).map { $0 } + (extras.all ? [nil] : []))
                }
                appended.replyTo = extras.reply
                message = appended
            } catch StoreError.conflict("client_id") {
                // A retry: this sender used the client id before (for a text message this is
                // the only check), or the same send arrived through another server that shares
                // the database and committed first. The failed insert left no gap.
                guard let existing = try writer.message(sender: user, clientID: parameters.clientId),
                      existing.conversationId == parameters.conversationId else {
                    throw ProtocolError(.invalidField, "this client id was used for another conversation", field: "clientId")
                }
                return (existing, snapshot, false, [], nil)
            }
            // Only a reply in a group can quote what a newcomer may not see.
            var unquoted: [UserID] = []
            if let quoted = extras.reply?.seq, snapshot.shape.kind == .group {
                unquoted = try ConversationAccess.partialViewers(in: conversation, kind: .group, seq: message.seq, quoted: quoted,
                                                                 reader: writer, batch: memberPage).quote
            }
            // A 1:1 message to a recipient with a connection is handed to it right after this
            // commit (`announce`), so their delivered marker moves in this same write: one
            // statement, where a write of its own per message would double the store's work.
            var delivered: ReceiptState?
            if snapshot.shape.kind == .user, let peer = snapshot.members.ids.first(where: { $0 != user }), delivery.isOnline(peer) {
                let marker = try writer.markDelivered(conversation: conversation, user: peer, toAppended: message.seq)
                delivered = ReceiptState(conversationId: conversation, userId: peer, deliveredSeq: marker)
            }
            return (message, snapshot, true, unquoted, delivered)
        }
    }

    /// A send's reply (the quoted message, which must be in the same conversation, with its
    /// preview) and mentions (members of a group; `@all` from its owner only), checked.
    private static func replyAndMentions(_ parameters: SendParameters, by user: UserID, snapshot: MembershipCache.Snapshot,
                                         writer: StoreWriter, excerptLimit: Int) throws
        -> (reply: ReplyPreview?, mentions: [UserID]?, all: Bool) {
        var reply: ReplyPreview?
        if let quoted = parameters.replyTo {
            let message = try ConversationAccess.target(quoted, in: parameters.conversationId, seenBy: user, reader: writer)
            reply = ReplyPreviews.preview(of: message, id: message.id, excerptLimit: excerptLimit)
        }
        let all = parameters.mentionsAll == true
        var mentions: [UserID]?
        if let ids = parameters.mentions, !ids.isEmpty {
            var seen = Set<UserID>()
            mentions = ids.filter { seen.insert($0).inserted }
        }
        guard all || mentions != nil else { return (reply, nil, false) }
        guard snapshot.shape.kind == .group else {
            throw ProtocolError(.invalidField, "mentions are for groups", field: "mentions")
        }
        if let mentions, !mentions.allSatisfy(snapshot.members.set.contains) {
            throw ProtocolError(.invalidField, "only members of the group can be mentioned", field: "mentions")
        }
        if all, try writer.conversation(id: parameters.conversationId)?.ownerID != user {
            throw ProtocolError(.notOwner, "only the group's owner may mention everyone")
        }
        return (reply, mentions, all)
    }

    /// After the commit: keeps the members read inside the write, and delivers a new message.
    private func announce(_ stored: Stored, connection: ConnectionToken?) -> SentMessage {
        context.membership.store(stored.snapshot)
        guard stored.isNew else { return SentMessage(message: stored.message, encodedJSON: nil) }
        var members = stored.snapshot.members.ids
        if !stored.unquoted.isEmpty, let reply = stored.message.replyTo {
            let unquoted = Set(stored.unquoted)
            members.removeAll { unquoted.contains($0) }
            var blind = stored.message
            blind.replyTo = ReplyPreview(messageId: reply.messageId)
            _ = context.announce([blind], to: stored.unquoted, kind: stored.snapshot.shape.kind, excluding: connection)
        }
        let sender = stored.message.sender
        let decision = sender.flatMap { sender in stored.delivered.map { noteDelivered($0, to: sender) } }
        let encoded = context.announce(stored.message, to: members, kind: stored.snapshot.shape.kind, excluding: connection)
        if let decision, let delivered = stored.delivered, let sender { tellDelivered(delivered, to: sender, as: decision) }
        return SentMessage(message: stored.message, encodedJSON: encoded)
    }

    /// The 1:1 conversation `user` has with `other`, friends now or once; `not_found` if none.
    public func find(for user: UserID, with other: UserID) async throws(ProtocolError) -> ConversationReference {
        let conversation = try await context.gateway.read { reader in try reader.directConversation(between: user, and: other) }
        guard let conversation else { throw ProtocolError(.notFound, "no conversation with that user") }
        return ConversationReference(conversationId: conversation.id)
    }

    /// A page of history, oldest first, before `before` (or the newest).
    public func history(for user: UserID, _ parameters: HistoryParameters) async throws(ProtocolError) -> MessagePage {
        let limit = min(max(parameters.limit ?? context.rules.defaultHistoryPage, 1), context.rules.maxHistoryPage)
        let budget = context.rules.maxAnswerBytes
        let rooms = context.rooms
        let excerptLimit = context.rules.replyExcerptCharacters
        let page = try await context.gateway.read { reader in
            let conversation = try ConversationAccess.readable(parameters.conversationId, by: user, reader: reader, rooms: rooms)
            var used = 0
            var pinned: [PinnedMessage]?
            // A group member who joined with earlier history hidden sees from their joining on.
            let from = try Self.historyStart(of: conversation, for: user, reader: reader)
            if parameters.before == nil {
                pinned = try MessageActionService.pinned(in: parameters.conversationId, reader: reader, excerptLimit: excerptLimit, from: from)
                used += pinned?.reduce(0) { $0 + EncodedSizeBound.message($1.message) } ?? 0
            }
            let page = try reader.messages(in: parameters.conversationId, before: parameters.before, limit: limit).filter { $0.seq > from }
            // Action events are stored in the sequence but shown as the state they made,
            // unless asked for; messages the user hid are left out for them alone.
            let shown = try Self.visible(page, to: user, events: parameters.events == true, in: parameters.conversationId,
                                         reader: reader, excerptLimit: excerptLimit, from: from)
            let messages = Array(Self.newestFitting(shown, budget: budget, used: &used))
            let first = messages.count == shown.count ? page.first?.seq : messages.first?.seq
            let (peerRead, peerDelivered) = try Self.peerMarkers(in: conversation, of: user, reader: reader)
            return (MessagePage(messages: messages, hasMore: (first ?? from + 1) > from + 1, pinned: pinned.flatMap { $0.isEmpty ? nil : $0 },
                                peerReadSeq: peerRead, peerDeliveredSeq: peerDelivered), conversation.kind)
        }
        // A page fetched is delivered: the 1:1 sender's ticks move on.
        if page.1 == .user, let newest = page.0.messages.last?.seq {
            await markDelivered([(parameters.conversationId, newest)], to: user)
        }
        return page.0
    }

    /// The sequence number after which `user` sees `conversation`: where they joined a group
    /// that hides earlier history from newcomers, else 0.
    static func historyStart(of conversation: StoredConversation, for user: UserID, reader: StoreReader) throws -> Int64 {
        guard conversation.kind == .group else { return 0 }
        return try ConversationAccess.historyStart(of: conversation.id, for: user, reader: reader)
    }

    /// `messages` as `user` sees them: without action events unless `events`, with reply
    /// previews, and those they hid reduced to their place in the sequence (`hidden`, no
    /// content), so that clients that page by `seq` see no gap. `from` is the user's
    /// `historyStart`: replies to what came before it are previewed as gone.
    static func visible(_ messages: [Message], to user: UserID, events: Bool, in conversation: ConversationID,
                        reader: StoreReader, excerptLimit: Int, from: Int64) throws -> [Message] {
        let kept = events ? messages : messages.filter { $0.system?.type.isMessageAction != true }
        let hidden = try reader.hiddenMessageIDs(of: user, in: conversation, among: kept.compactMap { Int64($0.id) })
        let shown = try ReplyPreviews.filled(kept, reader: reader, excerptLimit: excerptLimit, from: from)
        guard !hidden.isEmpty else { return shown }
        return shown.map { message in
            guard let id = Int64(message.id), hidden.contains(id) else { return message }
            var placeholder = Message(id: message.id, conversationId: message.conversationId, seq: message.seq, sender: message.sender,
                                      clientId: message.clientId, kind: message.kind, createdAt: message.createdAt)
            placeholder.hidden = true
            return placeholder
        }
    }

    /// The sessions list: every 1:1 and group conversation, newest first, and rooms the user
    /// is in now; with unread counts and their total.
    public func list(for user: UserID) async throws(ProtocolError) -> ConversationList {
        let rooms = context.rooms
        let roomIDs = rooms.rooms(of: user)
        let now = context.clock()
        let summaries = try await context.gateway.read { reader in
            try Self.summaries(for: user, reader: reader, now: now) + roomIDs.compactMap { id in
                try reader.conversation(id: id).map { room in
                    ConversationSummary(id: room.id, kind: .room, name: room.name, avatar: room.avatar,
                                        lastMessage: try reader.message(in: room.id, seq: room.lastSeq),
                                        lastSeq: room.lastSeq, readSeq: room.lastSeq, unread: 0, lastActivityAt: room.lastActivityAt)
                }
            }
        }
        let ordered = summaries.sorted { $0.lastActivityAt != $1.lastActivityAt ? $0.lastActivityAt > $1.lastActivityAt : $0.id > $1.id }
        return ConversationList(conversations: ordered, totalUnread: ordered.reduce(0) { $0 + $1.unread })
    }

    /// The user's 1:1 and group conversations with their mutes in force at `now`.
    static func summaries(for user: UserID, reader: StoreReader, now: Int64) throws -> [ConversationSummary] {
        let inbox = try reader.inbox(of: user)
        let mutes = try reader.conversationMutes(of: user).filter { $0.value.isActive(at: now) }
        let peerIDs = inbox.compactMap { entry -> UserID? in
            guard entry.conversation.kind == .user, let a = entry.conversation.userA, let b = entry.conversation.userB else { return nil }
            return a == user ? b : a
        }
        let peers = Dictionary(try MessagingContext.profiles(peerIDs, reader: reader).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let mentions = try reader.mentionCounts(for: user)
        let sharing = try reader.privacy(of: user).readReceipts
        return try inbox.map { entry in
            let conversation = entry.conversation
            var peer: UserProfile?
            if conversation.kind == .user, let a = conversation.userA, let b = conversation.userB {
                peer = peers[a == user ? b : a]
            }
            var summary = ConversationSummary(id: conversation.id, kind: conversation.kind, peer: peer, name: conversation.name,
                                              avatar: conversation.avatar, lastMessage: entry.lastMessage, lastSeq: conversation.lastSeq,
                                              readSeq: entry.member.readSeq, unread: entry.unread,
                                              lastActivityAt: conversation.lastActivityAt, mentions: mentions[conversation.id],
                                              mute: mutes[conversation.id])
            (summary.peerReadSeq, summary.peerDeliveredSeq) = try peerMarkers(in: conversation, of: user, sharing: sharing, reader: reader)
            return summary
        }
    }
}
