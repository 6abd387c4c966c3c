public import ParleyProtocol

// Read markers: moving them (a client's `conversation.read`, a gateway's marks) and the
// unread counts that follow from them.
extension ConversationService {
    /// Marks everything up to `seq` read; the user's other devices hear of it.
    public func markRead(for user: UserID, _ parameters: ReadParameters, connection: ConnectionToken?) async throws(ProtocolError) -> ReadState {
        let rooms = context.rooms
        // The total is one aggregate query: building every summary here (the whole inbox)
        // cost more than the rest of the write.
        let (state, receipt) = try await context.gateway.write { writer in
            let moved = try Self.moveMarker(parameters, of: user, writer: writer, rooms: rooms)
            let state = ReadState(conversationId: moved.conversation.id, readSeq: moved.marker,
                                  unread: try Self.unread(in: moved.conversation, for: user, after: moved.marker, reader: writer),
                                  totalUnread: try writer.totalUnread(for: user))
            return (state, moved.receipt)
        }
        context.delivery.deliver(.conversationRead(state), to: [user], excluding: connection)
        announce(receipt)
        return state
    }

    /// Moves the read marker like `markRead`, for a gateway that marks what it hands its
    /// clients as read (XMPP, on every delivered message) and needs no answer. The user's
    /// unread total, a pass over all their conversations, is counted only when another
    /// connection of the user will hear of the move, and then by a read after the write has
    /// committed, off the single writer (a connection that appears later syncs after the
    /// commit, so it sees the marker anyway).
    public func moveReadMarker(for user: UserID, _ parameters: ReadParameters, connection: ConnectionToken?) async throws(ProtocolError) {
        let rooms = context.rooms
        let (conversation, marker, receipt) = try await context.gateway.write { writer in
            try Self.moveMarker(parameters, of: user, writer: writer, rooms: rooms)
        }
        announce(receipt)
        guard context.delivery.isOnline(user, excluding: connection) else { return }
        let (unread, total) = try await context.gateway.read { reader in
            (try Self.unread(in: conversation, for: user, after: marker, reader: reader), try reader.totalUnread(for: user))
        }
        let state = ReadState(conversationId: conversation.id, readSeq: marker, unread: unread, totalUnread: total)
        context.delivery.deliver(.conversationRead(state), to: [user], excluding: connection)
    }

    /// The unread count after `marker`: nothing in a room (nothing is kept there) or once the
    /// marker is at the end, else the store's count.
    static func unread(in conversation: StoredConversation, for user: UserID, after marker: Int64, reader: StoreReader) throws -> Int64 {
        guard conversation.kind != .room, conversation.lastSeq > marker else { return 0 }
        return try reader.unreadCount(in: conversation.id, for: user, after: marker)
    }

    /// The conversation, if the user may read it, and their read marker after moving it to
    /// `seq` (never back, never past the newest message); in a room, where nothing is kept,
    /// the newest message.
    /// In a 1:1 conversation whose marker moved, the receipt for the other person.
    static func moveMarker(_ parameters: ReadParameters, of user: UserID, writer: StoreWriter, rooms: RoomOccupancy)
        throws -> (conversation: StoredConversation, marker: Int64, receipt: Receipt?) {
        let conversation = try ConversationAccess.readable(parameters.conversationId, by: user, reader: writer, rooms: rooms)
        guard conversation.kind != .room else { return (conversation, conversation.lastSeq, nil) }
        let before = conversation.kind == .user ? try writer.member(of: conversation.id, user: user)?.readSeq : nil
        let marker = try writer.markRead(conversation: conversation.id, user: user, upTo: parameters.seq)
        guard let before, marker > before, let a = conversation.userA, let b = conversation.userB else { return (conversation, marker, nil) }
        let peer = a == user ? b : a
        // What was read was delivered, whatever way it came.
        let deliveredBefore = try writer.deliveredSeq(in: conversation.id, user: user)
        let delivered = try writer.markDelivered(conversation: conversation.id, user: user, upTo: marker)
        let shared = try sharesReadReceipts(user, peer, reader: writer)
        guard shared || delivered > deliveredBefore else { return (conversation, marker, nil) }
        return (conversation, marker, Receipt(to: peer, state: ReceiptState(conversationId: conversation.id, userId: user,
                                                                            readSeq: shared ? marker : nil, deliveredSeq: delivered)))
    }
}
