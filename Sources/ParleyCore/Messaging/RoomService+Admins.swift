public import ParleyProtocol

// A room's admins (docs/protocol.md, "Group governance"): the creator appoints them, and they
// kick and ban beside the creator. They are the groups' roles model: a `members` row with
// the `admin` role (a room's occupancy stays in memory; these rows are the standing roles
// only, and no list of conversations reads them, since those list 1:1 chats and groups).
extension RoomService {
    /// The creator makes a user an admin of the room (at most `maxGroupAdmins`); a
    /// `admin_added` notice goes to the occupants.
    public func addAdmin(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let limit = context.rules.maxGroupAdmins
        try await appointing(by: user, parameters, notice: .adminAdded) { writer, room, now in
            guard try writer.member(of: room, user: parameters.userId)?.role != .admin else { return false }
            guard let target = try writer.user(id: parameters.userId), target.deletedAt == nil else {
                throw ProtocolError(.notFound, "no such user", field: "userId")
            }
            try GroupService.checkNotBanned(parameters.userId, from: room, reader: writer)
            let admins = try writer.members(of: room, after: nil, limit: limit + 1).filter { $0.role == .admin }.count
            guard admins < limit else { throw ProtocolError(.tooManyAdmins, "a room has at most \(limit) admins") }
            try writer.saveMember(StoredMember(conversationID: room, userID: parameters.userId, role: .admin, joinedAt: now, readSeq: 0))
            return true
        }
    }

    /// The creator takes a user's admin role away; `admin_removed` goes to the occupants.
    public func removeAdmin(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        try await appointing(by: user, parameters, notice: .adminRemoved) { writer, room, _ in
            guard try writer.member(of: room, user: parameters.userId)?.role == .admin else {
                throw ProtocolError(.notFound, "that user is not an admin of the room", field: "userId")
            }
            try writer.deleteMember(of: room, user: parameters.userId)
            return true
        }
    }

    /// The room's admins, by id (anyone who may read the room: its occupants; and its
    /// creator and admins, in it or not).
    public func admins(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> UserList {
        let standing = try await standing(for: user, parameters)
        return UserList(users: standing.admins)
    }

    /// The room's creator and admins, for muc#admin's `owner` and `admin` lists (the same
    /// readers as `admins`); the creator is nil once their account is gone.
    public func standing(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError)
        -> (creator: UserProfile?, admins: [UserProfile]) {
        let rooms = context.rooms
        let limit = context.rules.maxGroupAdmins
        return try await context.gateway.read { reader in
            let id = parameters.conversationId
            guard let room = try reader.conversation(id: id), room.kind == .room else { throw ProtocolError(.notFound, "no such room") }
            let admins = try reader.members(of: id, after: nil, limit: limit + 1).filter { $0.role == .admin }.map(\.userID)
            guard rooms.contains(id, user) || room.ownerID == user || admins.contains(user) else {
                throw ProtocolError(.notMember, "enter the room first")
            }
            let creator = try room.ownerID.flatMap { try MessagingContext.profiles([$0], reader: reader).first }
            return (creator, try MessagingContext.profiles(admins, reader: reader))
        }
    }

    /// Whether `user` is the room's admin (not its creator).
    public func isAdmin(_ room: ConversationID, user: UserID) async -> Bool {
        (try? await context.gateway.read { reader in try reader.member(of: room, user: user)?.role == .admin }) == true
    }

    /// One change of roles by the room's creator: `change` returns whether anything changed;
    /// if so, the notice is written in the same write and goes to the occupants after it.
    private func appointing(by user: UserID, _ parameters: MemberReference, notice: SystemNoticeType,
                            change: @escaping @Sendable (StoreWriter, ConversationID, Int64) throws -> Bool) async throws(ProtocolError) {
        let room = parameters.conversationId
        guard parameters.userId != user else { throw ProtocolError(.invalidField, "not on yourself", field: "userId") }
        let now = context.clock()
        let message = try await context.gateway.write { writer -> Message? in
            guard let found = try writer.conversation(id: room), found.kind == .room else { throw ProtocolError(.notFound, "no such room") }
            guard found.ownerID == user else { throw ProtocolError(.notOwner, "only the room's creator appoints its admins") }
            guard try change(writer, room, now) else { return nil }
            return try writer.appendMessage(NewMessage(
                conversationID: room, sender: nil, clientID: nil, kind: .system,
                system: SystemNotice(type: notice, actor: user, target: parameters.userId), createdAt: now))
        }
        if let message { context.announce([message], to: [], kind: .room, excluding: nil) }
    }
}
