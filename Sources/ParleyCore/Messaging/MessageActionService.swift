public import ParleyProtocol

/// Edit, recall, delete for me, reactions, forward and pins (docs/protocol.md, "Message
/// actions"). Every action that others see is a system notice appended to the conversation's
/// sequence in the same write that changes the message, so it has its own `seq`, is acked
/// after the commit, is idempotent by the caller's client id (the unique `(sender, client
/// id)` of messages) and reaches offline members through `sync` like any message.
public final class MessageActionService: Sendable {
    let context: MessagingContext

    public init(context: MessagingContext) {
        self.context = context
    }

    /// New text for one of the user's text messages, within the edit window.
    public func edit(by user: UserID, _ parameters: EditParameters, connection: ConnectionToken?) async throws(ProtocolError) -> MessageUpdate {
        let rules = context.rules
        guard !parameters.text.allSatisfy(\.isWhitespace) else {
            throw ProtocolError(.invalidField, "a text message needs text", field: "text")
        }
        try rules.text.validate(parameters.text, as: .text)
        return try await act(.messageEdited, by: user, parameters.conversationId, parameters.messageId, parameters.clientId,
                             connection: connection) { message, _, _, now in
            try ConversationAccess.checkEditable(message, by: user, now: now, rules: rules)
            message.text = parameters.text
            message.editedAt = now
        }
    }

    /// Takes a message back: its text and image are erased from the store and it stays as a
    /// tombstone ("… recalled a message"). A block does not stop a sender recalling their
    /// own words, so only reading the conversation is required.
    public func recall(by user: UserID, _ parameters: MessageActionParameters, connection: ConnectionToken?) async throws(ProtocolError) -> MessageUpdate {
        let rules = context.rules
        return try await act(.messageRecalled, by: user, parameters.conversationId, parameters.messageId, parameters.clientId,
                             mustPost: false, connection: connection) { message, conversation, writer, now in
            try ConversationAccess.checkRecallable(message, in: conversation, by: user, now: now, rules: rules, reader: writer)
            if let raw = Int64(message.id) { _ = try writer.deletePin(of: raw, in: conversation.id) }
            try writer.deleteMentions(in: conversation.id, seq: message.seq)
            message.text = nil
            message.image = nil
            message.voice = nil
            message.listenedBy = nil
            message.file = nil
            message.replyTo = nil
            message.mentions = nil
            message.mentionsAll = nil
            message.reactions = nil
            message.recalled = RecallMark(by: user, at: now)
        }
    }

    /// Adds the user's reaction; at most `maxReactionsPerUser` different emoji per message.
    public func react(by user: UserID, _ parameters: ReactParameters, connection: ConnectionToken?) async throws(ProtocolError) -> MessageUpdate {
        try ConversationAccess.checkEmoji(parameters.emoji)
        let limit = context.rules.maxReactionsPerUser
        return try await act(.reactionAdded, by: user, parameters.conversationId, parameters.messageId, parameters.clientId,
                             emoji: parameters.emoji, connection: connection) { message, _, _, _ in
            try ConversationAccess.checkReactable(message)
            var reactions = message.reactions ?? []
            guard reactions.filter({ $0.users.contains(user) }).count < limit else {
                throw ProtocolError(.invalidField, "at most \(limit) reactions of yours on one message", field: "emoji")
            }
            if let index = reactions.firstIndex(where: { $0.emoji == parameters.emoji }) {
                guard !reactions[index].users.contains(user) else {
                    throw ProtocolError(.invalidField, "you reacted with this emoji already", field: "emoji")
                }
                reactions[index].users.append(user)
            } else {
                reactions.append(Reaction(emoji: parameters.emoji, users: [user]))
            }
            message.reactions = reactions
        }
    }

    /// Removes the user's reaction.
    public func unreact(by user: UserID, _ parameters: ReactParameters, connection: ConnectionToken?) async throws(ProtocolError) -> MessageUpdate {
        try await act(.reactionRemoved, by: user, parameters.conversationId, parameters.messageId, parameters.clientId,
                      emoji: parameters.emoji, connection: connection) { message, _, _, _ in
            var reactions = message.reactions ?? []
            guard let index = reactions.firstIndex(where: { $0.emoji == parameters.emoji && $0.users.contains(user) }) else {
                throw ProtocolError(.notFound, "you have no such reaction on this message", field: "emoji")
            }
            reactions[index].users.removeAll { $0 == user }
            if reactions[index].users.isEmpty { reactions.remove(at: index) }
            message.reactions = reactions.isEmpty ? nil : reactions
        }
    }

    /// Pins a message (at most `maxPins` per conversation) and answers with the pinned list.
    public func pin(by user: UserID, _ parameters: MessageActionParameters, connection: ConnectionToken?) async throws(ProtocolError) -> PinResult {
        let limit = context.rules.maxPins
        return try await pinning(.messagePinned, by: user, parameters, connection: connection) { message, conversation, writer, now in
            try ConversationAccess.checkReactable(message)
            guard let raw = Int64(message.id) else { return }
            guard try writer.pins(in: conversation.id).count < limit else {
                throw ProtocolError(.invalidField, "at most \(limit) pinned messages per conversation", field: "messageId")
            }
            guard try writer.insertPin(StoredPin(conversationID: conversation.id, messageID: raw, pinnedBy: user, pinnedAt: now)) else {
                throw ProtocolError(.invalidField, "this message is pinned already", field: "messageId")
            }
        }
    }

    /// Unpins a message and answers with the pinned list.
    public func unpin(by user: UserID, _ parameters: MessageActionParameters, connection: ConnectionToken?) async throws(ProtocolError) -> PinResult {
        try await pinning(.messageUnpinned, by: user, parameters, connection: connection) { message, conversation, writer, _ in
            guard let raw = Int64(message.id), try writer.deletePin(of: raw, in: conversation.id) else {
                throw ProtocolError(.notFound, "this message is not pinned", field: "messageId")
            }
        }
    }

    /// Hides a message for the user alone; their other connections hear `message.hidden`.
    public func hide(by user: UserID, _ reference: MessageReference, connection: ConnectionToken?) async throws(ProtocolError) -> MessageReference {
        let rooms = context.rooms
        let now = context.clock()
        try await context.gateway.write { writer in
            _ = try ConversationAccess.readable(reference.conversationId, by: user, reader: writer, rooms: rooms)
            let message = try ConversationAccess.target(reference.messageId, in: reference.conversationId, seenBy: user, reader: writer,
                                                        notices: true)
            guard let raw = Int64(message.id) else { return }
            try writer.hideMessage(raw, in: reference.conversationId, for: user, at: now)
        }
        context.delivery.deliver(.messageHidden(reference), to: [user], excluding: connection)
        return reference
    }

    /// Copies a text or image message the user can read into a conversation they may post
    /// to, marked forwarded; a retry with the same client id answers with the copy made.
    public func forward(by user: UserID, _ parameters: ForwardParameters, connection: ConnectionToken?) async throws(ProtocolError) -> Message {
        try context.rules.text.validate(parameters.clientId, as: .clientId)
        let rooms = context.rooms
        let cache = context.membership
        let now = context.clock()
        let (message, snapshot, isNew) = try await context.gateway.write { writer in
            _ = try ConversationAccess.readable(parameters.conversationId, by: user, reader: writer, rooms: rooms)
            let original = try ConversationAccess.target(parameters.messageId, in: parameters.conversationId, seenBy: user, reader: writer)
            guard original.recalled == nil else {
                throw ProtocolError(.invalidField, "this message was recalled", field: "messageId")
            }
            let snapshot = try ConversationAccess.postable(parameters.to, by: user, writer: writer, rooms: rooms, cache: cache, now: now)
            if let existing = try writer.message(sender: user, clientID: parameters.clientId) {
                guard existing.conversationId == parameters.to, existing.forwarded == true else {
                    throw ProtocolError(.invalidField, "this client id was used for another message", field: "clientId")
                }
                return (existing, snapshot, false)
            }
            if let mediaID = original.image?.mediaId ?? original.voice?.mediaId ?? original.file?.mediaId {
                try writer.linkMedia(id: mediaID, to: parameters.to, at: now)
            }
            var forwarded = NewMessage(
                conversationID: parameters.to, sender: user, clientID: parameters.clientId, kind: original.kind,
                text: original.text, image: original.image, createdAt: now, forwarded: true)
            forwarded.voice = original.voice
            forwarded.file = original.file
            let copy = try writer.appendMessage(forwarded, markingReadBySender: snapshot.shape.kind != .room)
            return (copy, snapshot, true)
        }
        context.membership.store(snapshot)
        if isNew { context.announce([message], to: snapshot.members.ids, kind: snapshot.shape.kind, excluding: connection) }
        return message
    }

    /// The message of `conversation` another protocol names by `reference`: the client id
    /// one of `senders` gave it (XMPP stanza ids are client ids), else its server id; nil
    /// when there is none the user may read.
    public func message(_ reference: String, in conversation: ConversationID, sentBy senders: [UserID],
                        for user: UserID) async throws(ProtocolError) -> Message? {
        let rooms = context.rooms
        return try await context.gateway.read { reader in
            _ = try ConversationAccess.readable(conversation, by: user, reader: reader, rooms: rooms)
            let from = try ConversationAccess.historyStart(of: conversation, for: user, reader: reader)
            for sender in senders {
                if let found = try reader.message(sender: sender, clientID: reference), found.conversationId == conversation,
                   found.kind != .system, found.seq > from {
                    return found
                }
            }
            return try? ConversationAccess.target(reference, in: conversation, seenBy: user, reader: reader)
        }
    }

    // MARK: - One action, written and announced

    /// What an action's write returns: the update, who hears of it, and whether it is new;
    /// `partial`, the versions of the update for members who may not see all of the message
    /// (`ConversationAccess.partialViewers`), each with who gets it instead of `update`.
    typealias Acted = (update: MessageUpdate, recipients: [UserID], kind: ConversationKind, isNew: Bool,
                       partial: [(update: MessageUpdate, users: [UserID])])

    /// The change `change` makes to a message, applied in one write with its event: the
    /// permission (posting, or reading for `mustPost: false`), a retry answered from the
    /// stored event, the target message, the change, and the notice appended; then the
    /// members (or a room's occupants) hear `message.updated`, all but `connection`.
    private func act(_ type: SystemNoticeType, by user: UserID, _ conversationID: ConversationID, _ messageID: String,
                     _ clientID: String, emoji: String? = nil, mustPost: Bool = true, connection: ConnectionToken?,
                     change: @escaping @Sendable (inout Message, StoredConversation, StoreWriter, Int64) throws -> Void)
        async throws(ProtocolError) -> MessageUpdate {
        try await announce(try await context.gateway.write(acting(type, by: user, conversationID, messageID, clientID, emoji: emoji,
                                                                  mustPost: mustPost, change: change)), connection: connection)
    }

    /// `act` for pins, answering with the pinned list read in the same write.
    private func pinning(_ type: SystemNoticeType, by user: UserID, _ parameters: MessageActionParameters, connection: ConnectionToken?,
                         change: @escaping @Sendable (inout Message, StoredConversation, StoreWriter, Int64) throws -> Void)
        async throws(ProtocolError) -> PinResult {
        let acting = acting(type, by: user, parameters.conversationId, parameters.messageId, parameters.clientId, emoji: nil,
                            mustPost: true, change: change)
        let excerpt = context.rules.replyExcerptCharacters
        let (acted, pinned) = try await context.gateway.write { writer in
            let acted = try acting(writer)
            let from = try ConversationAccess.historyStart(of: parameters.conversationId, for: user, reader: writer)
            return (acted, try Self.pinned(in: parameters.conversationId, reader: writer, excerptLimit: excerpt, from: from))
        }
        return PinResult(update: announce(acted, connection: connection), pinned: pinned)
    }

    private func acting(_ type: SystemNoticeType, by user: UserID, _ conversationID: ConversationID, _ messageID: String,
                        _ clientID: String, emoji: String?, mustPost: Bool,
                        change: @escaping @Sendable (inout Message, StoredConversation, StoreWriter, Int64) throws -> Void)
        -> @Sendable (StoreWriter) throws -> Acted {
        let rooms = context.rooms
        let now = context.clock()
        let rules = context.rules
        return { writer in
            try rules.text.validate(clientID, as: .clientId)
            let conversation = mustPost
                ? try ConversationAccess.postable(conversationID, by: user, reader: writer, rooms: rooms, now: now)
                : try ConversationAccess.readable(conversationID, by: user, reader: writer, rooms: rooms)
            // A room's occupants are read when the event goes out (`announce`).
            let recipients = conversation.kind == .room ? [] : try writer.memberIDs(of: conversation.id)
            if let existing = try writer.message(sender: user, clientID: clientID) {
                // A retry: the same action answered from what was stored, nothing done again.
                guard existing.conversationId == conversationID, existing.system?.type == type,
                      existing.system?.messageId == messageID else {
                    throw ProtocolError(.invalidField, "this client id was used for another message", field: "clientId")
                }
                let target = try ConversationAccess.target(messageID, in: conversationID, seenBy: user, reader: writer)
                let from = try ConversationAccess.historyStart(of: conversationID, for: user, reader: writer)
                return (MessageUpdate(event: existing, message: try Self.shown(target, reader: writer, rules: rules, from: from)),
                        recipients, conversation.kind, false, [])
            }
            var target = try ConversationAccess.target(messageID, in: conversationID, seenBy: user, reader: writer)
            try change(&target, conversation, writer, now)
            try writer.replaceMessage(target)
            let event: Message
            do {
                event = try writer.appendMessage(NewMessage(
                    conversationID: conversationID, sender: user, clientID: clientID, kind: .system,
                    system: SystemNotice(type: type, actor: user, messageId: messageID, emoji: emoji), createdAt: now),
                    markingReadBySender: conversation.kind != .room)
            } catch StoreError.conflict("client_id") {
                // Another server sharing the database stored the same action first.
                throw ProtocolError(.invalidField, "this client id was used already; send the action again", field: "clientId")
            }
            return try Self.acted(event: event, target: target, by: user, recipients: recipients, kind: conversation.kind,
                                  reader: writer, rules: rules)
        }
    }

    /// A new action's `Acted`: the update as members who see everything get it, and the
    /// versions for those who joined after the message (a placeholder) or after the one it
    /// quotes (its reply preview gone). The actor sees the message (`target(seenBy:)`).
    static func acted(event: Message, target: Message, by user: UserID, recipients: [UserID], kind: ConversationKind,
                      reader: StoreReader, rules: MessagingRules) throws -> Acted {
        let quoted = try target.replyTo.flatMap { Int64($0.messageId) }.flatMap { try reader.message(id: $0) }
        let partial = try ConversationAccess.partialViewers(in: target.conversationId, kind: kind, seq: target.seq,
                                                            quoted: quoted?.seq, reader: reader, batch: rules.maxMemberPage)
        let full = MessageUpdate(event: event, message: try shown(target, reader: reader, rules: rules))
        var versions: [(update: MessageUpdate, users: [UserID])] = []
        if !partial.message.isEmpty {
            versions.append((MessageUpdate(event: event, message: ConversationAccess.placeholder(of: target)), partial.message))
        }
        if !partial.quote.isEmpty, let quoted {
            let unquoted = MessageUpdate(event: event, message: try shown(target, reader: reader, rules: rules, from: quoted.seq))
            versions.append((unquoted, partial.quote))
        }
        return (full, recipients, kind, true, versions)
    }

    /// After the commit: `message.updated` to everyone in the conversation, once (in the
    /// version each may see).
    func announce(_ acted: Acted, connection: ConnectionToken?) -> MessageUpdate {
        if acted.isNew {
            var recipients = acted.kind == .room ? context.rooms.occupants(of: acted.update.event.conversationId) : acted.recipients
            if !acted.partial.isEmpty {
                let partial = Set(acted.partial.flatMap(\.users))
                recipients.removeAll { partial.contains($0) }
                for version in acted.partial {
                    context.delivery.deliver(.messageUpdated(version.update), to: version.users, excluding: connection)
                }
            }
            context.delivery.deliver(.messageUpdated(acted.update), to: recipients, excluding: connection)
        }
        // The actor's own answer, in their version (they may not see what the message quotes).
        let actor = acted.update.event.sender
        return acted.partial.first { version in actor.map { version.users.contains($0) } == true }?.update ?? acted.update
    }

    /// A message as clients see it (its reply preview filled in);
    /// `from`: the viewer's `historyStart`, for the preview of what the message quotes.
    static func shown(_ message: Message, reader: StoreReader, rules: MessagingRules, from: Int64 = 0) throws -> Message {
        try ReplyPreviews.filled([message], reader: reader, excerptLimit: rules.replyExcerptCharacters, from: from)[0]
    }

    /// The pinned messages of a conversation, newest pin first, as clients see them.
    /// Pins of messages at or before `from` (the reader's `historyStart`) are left out.
    static func pinned(in conversation: ConversationID, reader: StoreReader, excerptLimit: Int, from: Int64) throws -> [PinnedMessage] {
        let pins = try reader.pins(in: conversation)
        let messages = try pins.map { try reader.message(id: $0.messageID) }.compactMap { $0 }.filter { $0.seq > from }
        let shown = try ReplyPreviews.filled(messages, reader: reader, excerptLimit: excerptLimit, from: from)
        let byID = Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return pins.compactMap { pin in
            byID[String(pin.messageID)].map { PinnedMessage(message: $0, pinnedBy: pin.pinnedBy, pinnedAt: pin.pinnedAt) }
        }
    }
}
