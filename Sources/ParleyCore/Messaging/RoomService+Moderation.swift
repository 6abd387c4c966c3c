public import ParleyProtocol

// Kicks and bans in rooms (docs/protocol.md, "Group governance"): the room's creator and
// the admins they appoint (`RoomService+Admins`) moderate; an admin acts on anyone but the
// creator and the other admins. Rooms stay open to anyone not banned.
extension RoomService {
    /// Puts an occupant out (they may come back unless banned).
    public func kick(by user: UserID, _ parameters: BanParameters) async throws(ProtocolError) {
        try await moderate(by: user, parameters, banning: false)
    }

    /// Bars a user by id, putting them out if they are in.
    public func ban(by user: UserID, _ parameters: BanParameters) async throws(ProtocolError) {
        try await moderate(by: user, parameters, banning: true)
    }

    /// Lifts a ban; the occupants get a `member_unbanned` notice, as a group's members do.
    public func unban(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let room = parameters.conversationId
        let now = context.clock()
        let message = try await context.gateway.write { writer -> Message in
            _ = try Self.moderated(room, by: user, reader: writer)
            guard try writer.deleteBan(in: room, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not banned", field: "userId")
            }
            return try writer.appendMessage(NewMessage(
                conversationID: room, sender: nil, clientID: nil, kind: .system,
                system: SystemNotice(type: .memberUnbanned, actor: user, target: parameters.userId), createdAt: now))
        }
        _ = context.delivery.deliver(.messageNew(message), to: context.rooms.occupants(of: room), excluding: nil)
    }

    /// The room's bans, oldest first (its moderators).
    public func bans(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> BanList {
        let limit = context.rules.maxListPage
        return try await context.gateway.read { reader in
            _ = try Self.moderated(parameters.conversationId, by: user, reader: reader)
            return try GroupService.banList(try reader.bans(in: parameters.conversationId, limit: limit), reader: reader)
        }
    }

    /// Whether `user` may moderate the room: they created it or are its admin.
    public func mayModerate(_ room: ConversationID, user: UserID) async -> Bool {
        (try? await context.gateway.read { reader in try Self.moderated(room, by: user, reader: reader) }) != nil
    }

    private func moderate(by user: UserID, _ parameters: BanParameters, banning: Bool) async throws(ProtocolError) {
        let rooms = context.rooms
        let room = parameters.conversationId
        let target = parameters.userId
        guard target != user else { throw ProtocolError(.invalidField, "not on yourself", field: "userId") }
        let reason = try GroupService(context: context).validReason(parameters.reason)
        let now = context.clock()
        let message = try await context.gateway.write { writer -> Message? in
            let (found, rank) = try Self.moderated(room, by: user, reader: writer)
            var targetRank = StoredMember.Role.owner.rank
            if found.ownerID != target {
                targetRank = try writer.member(of: room, user: target)?.role.rank ?? StoredMember.Role.member.rank
            }
            guard rank > targetRank else {
                throw ProtocolError(found.ownerID == target ? .notOwner : .notAdmin,
                                    "only the room's creator may do this to an admin", field: "userId")
            }
            if banning {
                guard try writer.user(id: target) != nil else { throw ProtocolError(.notFound, "no such user", field: "userId") }
                // A banned admin is an admin no more.
                if targetRank == StoredMember.Role.admin.rank { try writer.deleteMember(of: room, user: target) }
                try writer.saveBan(StoredBan(conversationID: room, userID: target, bannedBy: user, reason: reason, createdAt: now))
            } else if !rooms.contains(room, target) {
                throw ProtocolError(.notMember, "that user is not in the room", field: "userId")
            }
            guard banning || rooms.contains(room, target) else { return nil }
            return try writer.appendMessage(NewMessage(
                conversationID: room, sender: nil, clientID: nil, kind: .system,
                system: SystemNotice(type: banning ? .memberBanned : .memberRemoved, actor: user, target: target), createdAt: now))
        }
        // The notice first reaches everyone, the one put out included; then they leave
        // without a `room_left` of their own.
        let present = rooms.contains(room, target)
        if let message { _ = context.delivery.deliver(.messageNew(message), to: rooms.occupants(of: room) + (present ? [] : [target]), excluding: nil) }
        if present {
            _ = rooms.leave(room, target)
            _ = context.delivery.deliver(.roomKicked(RoomKick(conversationId: room, actor: user, banned: banning, reason: reason)),
                                         to: [target], excluding: nil)
        }
    }

    /// The room and the rank `user` moderates it with (the creator's or an admin's), if they may.
    static func moderated(_ id: ConversationID, by user: UserID, reader: StoreReader) throws -> (StoredConversation, Int) {
        guard let room = try reader.conversation(id: id), room.kind == .room else { throw ProtocolError(.notFound, "no such room") }
        if room.ownerID == user { return (room, StoredMember.Role.owner.rank) }
        guard try reader.member(of: id, user: user)?.role == .admin else {
            throw ProtocolError(.notAdmin, "only the room's creator or an admin may do this")
        }
        return (room, StoredMember.Role.admin.rank)
    }
}
