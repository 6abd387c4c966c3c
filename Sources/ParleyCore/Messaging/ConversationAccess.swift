import ParleyProtocol

/// Who may read and post where: the one place these rules live.
enum ConversationAccess {
    /// The conversation, if `user` may read it: a member of a 1:1 or group conversation, or
    /// an occupant of a room. Others learn only that it is not theirs.
    static func readable(_ id: ConversationID, by user: UserID, reader: StoreReader,
                         rooms: RoomOccupancy) throws -> StoredConversation {
        guard let conversation = try reader.conversation(id: id) else {
            throw ProtocolError(.notFound, "no such conversation")
        }
        switch conversation.kind {
        case .user, .group:
            guard try reader.member(of: id, user: user) != nil else {
                throw ProtocolError(.notMember, "you are not in this conversation")
            }
        case .room:
            guard rooms.contains(id, user) else { throw ProtocolError(.notMember, "enter the room first") }
        }
        return conversation
    }

    /// The conversation, if `user` may post in it: readable, and for 1:1 conversations the
    /// two are still friends and neither blocked the other.
    static func postable(_ id: ConversationID, by user: UserID, reader: StoreReader,
                         rooms: RoomOccupancy) throws -> StoredConversation {
        let conversation = try readable(id, by: user, reader: reader, rooms: rooms)
        try checkStillFriends(conversation, user, reader: reader)
        return conversation
    }

    /// `postable`, for use inside a write, with the members taken from `cache` (or read and
    /// returned for the caller to store once the write has committed). Returns the
    /// conversation and, for 1:1 and group conversations, the member snapshot.
    static func postable(_ id: ConversationID, by user: UserID, writer: StoreReader, rooms: RoomOccupancy,
                         cache: MembershipCache) throws -> (StoredConversation, MembershipCache.Snapshot?) {
        guard let conversation = try writer.conversation(id: id) else {
            throw ProtocolError(.notFound, "no such conversation")
        }
        var snapshot: MembershipCache.Snapshot?
        switch conversation.kind {
        case .user, .group:
            let members = try cache.members(of: id, writer: writer)
            guard members.members.set.contains(user) else {
                throw ProtocolError(.notMember, "you are not in this conversation")
            }
            snapshot = members
        case .room:
            guard rooms.contains(id, user) else { throw ProtocolError(.notMember, "enter the room first") }
        }
        try checkStillFriends(conversation, user, reader: writer)
        return (conversation, snapshot)
    }

    /// In a 1:1 conversation, the two must still be friends and neither may have blocked the other.
    private static func checkStillFriends(_ conversation: StoredConversation, _ user: UserID, reader: StoreReader) throws {
        guard conversation.kind == .user, let a = conversation.userA, let b = conversation.userB else { return }
        let other = a == user ? b : a
        guard try !Friendships.eitherBlocked(user, other, reader: reader) else {
            throw ProtocolError(.blocked, "one of you has blocked the other")
        }
        guard try reader.friendship(of: user, with: other) != nil else {
            throw ProtocolError(.notFriends, "you are no longer friends")
        }
    }

    /// The group, if `user` is a member.
    static func group(_ id: ConversationID, member user: UserID, reader: StoreReader) throws -> (StoredConversation, StoredMember) {
        guard let conversation = try reader.conversation(id: id), conversation.kind == .group else {
            throw ProtocolError(.notFound, "no such group")
        }
        guard let member = try reader.member(of: id, user: user) else {
            throw ProtocolError(.notMember, "you are not a member of this group")
        }
        return (conversation, member)
    }

    /// The group, if `user` owns it.
    static func group(_ id: ConversationID, owner user: UserID, reader: StoreReader) throws -> StoredConversation {
        let (conversation, member) = try group(id, member: user, reader: reader)
        guard member.role == .owner else { throw ProtocolError(.notOwner, "only the group's owner may do this") }
        return conversation
    }
}
