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

    /// The conversation, if `user` may post in it: readable, for 1:1 conversations the two
    /// are still friends and neither blocked the other, and in a group the user is not muted.
    static func postable(_ id: ConversationID, by user: UserID, reader: StoreReader,
                         rooms: RoomOccupancy, now: Int64) throws -> StoredConversation {
        let conversation = try readable(id, by: user, reader: reader, rooms: rooms)
        try checkStillFriends(conversation, user, reader: reader)
        if conversation.kind == .group { try checkNotMuted(until: try reader.mutedUntil(in: id, user: user), now: now) }
        return conversation
    }

    /// A muted member reads but does not post until the mute ends.
    static func checkNotMuted(until: Int64?, now: Int64) throws {
        guard let until, until > now else { return }
        throw ProtocolError(.muted, "you are muted in this group", retryAfterSeconds: Int(min((until - now + 999) / 1000, Int64(Int32.max))))
    }

    /// `postable`, for use inside a write, with what it needs taken from `cache` where it can
    /// (or read, and returned for the caller to store once the write has committed): the
    /// conversation's kind and pair, its members, and whether a 1:1 pair may still write to
    /// each other. Returns the snapshot to store.
    static func postable(_ id: ConversationID, by user: UserID, writer: StoreReader, rooms: RoomOccupancy,
                         cache: MembershipCache, now: Int64) throws -> MembershipCache.Snapshot {
        guard var snapshot = try cache.snapshot(of: id, writer: writer) else {
            throw ProtocolError(.notFound, "no such conversation")
        }
        switch snapshot.shape.kind {
        case .user, .group:
            guard snapshot.members.set.contains(user) else {
                throw ProtocolError(.notMember, "you are not in this conversation")
            }
            try checkNotMuted(until: snapshot.members.mutedUntil[user], now: now)
        case .room:
            guard rooms.contains(id, user) else { throw ProtocolError(.notMember, "enter the room first") }
        }
        if snapshot.shape.kind == .user, let a = snapshot.shape.userA, let b = snapshot.shape.userB {
            let other = a == user ? b : a
            let pair = MembershipCache.Pair(user, other)
            let (cleared, version) = cache.clearance(of: pair)
            if !cleared {
                try checkStillFriends(user, other, reader: writer)
                snapshot.clearedPair = (pair, version)
            }
        }
        return snapshot
    }

    /// In a 1:1 conversation, the two must still be friends and neither may have blocked the other.
    private static func checkStillFriends(_ conversation: StoredConversation, _ user: UserID, reader: StoreReader) throws {
        guard conversation.kind == .user, let a = conversation.userA, let b = conversation.userB else { return }
        try checkStillFriends(user, a == user ? b : a, reader: reader)
    }

    private static func checkStillFriends(_ user: UserID, _ other: UserID, reader: StoreReader) throws {
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

    /// The group and the member, if `user` is its owner or one of its admins.
    static func group(_ id: ConversationID, admin user: UserID, reader: StoreReader) throws -> (StoredConversation, StoredMember) {
        let (conversation, member) = try group(id, member: user, reader: reader)
        guard member.role.rank >= StoredMember.Role.admin.rank else {
            throw ProtocolError(.notAdmin, "only the group's owner or an admin may do this")
        }
        return (conversation, member)
    }

    /// Whether `actor` may act on `target` (remove, mute, ban): an admin acts on members, the
    /// owner on admins too, nobody on themselves or on the owner.
    static func checkOutranks(_ actor: StoredMember, _ target: StoredMember?, targetID: UserID) throws {
        guard actor.userID != targetID else { throw ProtocolError(.invalidField, "not on yourself", field: "userId") }
        guard let target else { return }
        guard actor.role.rank > target.role.rank else {
            throw ProtocolError(target.role == .owner ? .notOwner : .notAdmin,
                                "only the group's owner may do this to an admin", field: "userId")
        }
    }

    /// The group, if `user` owns it.
    static func group(_ id: ConversationID, owner user: UserID, reader: StoreReader) throws -> StoredConversation {
        let (conversation, member) = try group(id, member: user, reader: reader)
        guard member.role == .owner else { throw ProtocolError(.notOwner, "only the group's owner may do this") }
        return conversation
    }
}
