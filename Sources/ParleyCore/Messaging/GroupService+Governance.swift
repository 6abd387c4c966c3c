public import ParleyProtocol

// Roles, join requests, bans and mutes (docs/protocol.md, "Group governance"). Each change is
// one write with its notice in the group's sequence, announced after the commit.
extension GroupService {
    /// The owner makes a member an admin (at most `maxGroupAdmins`).
    public func addAdmin(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let limit = context.rules.maxGroupAdmins
        try await governing(parameters.conversationId) { writer, now in
            let group = try ConversationAccess.group(parameters.conversationId, owner: user, reader: writer)
            guard var target = try writer.member(of: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not a member", field: "userId")
            }
            guard target.role == .member else { return nil }
            let admins = try writer.members(of: group.id, after: nil, limit: Int.max).filter { $0.role == .admin }.count
            guard admins < limit else { throw ProtocolError(.tooManyAdmins, "a group has at most \(limit) admins") }
            target.role = .admin
            try writer.saveMember(target)
            return try Self.notice(.adminAdded, in: group.id, actor: user, target: target.userID, now: now, writer: writer)
        }
    }

    /// The owner makes an admin a plain member again.
    public func removeAdmin(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        try await governing(parameters.conversationId) { writer, now in
            let group = try ConversationAccess.group(parameters.conversationId, owner: user, reader: writer)
            guard var target = try writer.member(of: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not a member", field: "userId")
            }
            guard target.role == .admin else { return nil }
            target.role = .member
            try writer.saveMember(target)
            return try Self.notice(.adminRemoved, in: group.id, actor: user, target: target.userID, now: now, writer: writer)
        }
    }

    /// Pending join requests, oldest first (admins).
    public func requests(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> JoinRequestList {
        let limit = context.rules.maxListPage
        return try await context.gateway.read { reader in
            _ = try ConversationAccess.group(parameters.conversationId, admin: user, reader: reader)
            let requests = try reader.joinRequests(in: parameters.conversationId, limit: limit)
            let profiles = Dictionary(try MessagingContext.profiles(requests.map(\.userID), reader: reader).map { ($0.id, $0) },
                                      uniquingKeysWith: { a, _ in a })
            return JoinRequestList(requests: requests.compactMap { request in
                profiles[request.userID].map { JoinRequest(conversationId: request.conversationID, user: $0, createdAt: request.createdAt) }
            })
        }
    }

    /// An admin lets a requester in: `member_joined` in the group, `group.request.decided` to them.
    public func acceptRequest(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let membership = context.membership
        let requester = parameters.userId
        let info = try await governing(parameters.conversationId) { writer, now in
            let (group, _) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard try writer.joinRequest(in: group.id, user: requester) != nil else {
                throw ProtocolError(.notFound, "no request of that user", field: "userId")
            }
            try Self.checkNotBanned(requester, from: group.id, reader: writer)
            return try Self.admit(requester, to: group, policy: try Self.policy(of: group.id, reader: writer), now: now,
                                  writer: writer, membership: membership)
        } answer: { reader in try Self.info(parameters.conversationId, for: requester, reader: reader) }
        _ = context.delivery.deliver(.groupRequestDecided(JoinRequestState(conversationId: parameters.conversationId, state: "accepted",
                                                                         group: info)), to: [requester], excluding: nil)
    }

    /// An admin turns a request down: `join_declined` in the group, `group.request.decided` to them.
    public func declineRequest(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        try await governing(parameters.conversationId) { writer, now in
            let (group, _) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard try writer.deleteJoinRequest(in: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "no request of that user", field: "userId")
            }
            return try Self.notice(.joinDeclined, in: group.id, actor: user, target: parameters.userId, now: now, writer: writer)
        }
        _ = context.delivery.deliver(.groupRequestDecided(JoinRequestState(conversationId: parameters.conversationId, state: "declined")),
                                 to: [parameters.userId], excluding: nil)
    }

    /// Removes the user if they are a member and bars them by id; any user may be banned
    /// ahead, the owner by nobody, admins by the owner only.
    public func ban(by user: UserID, _ parameters: BanParameters) async throws(ProtocolError) {
        let membership = context.membership
        let reason = try validReason(parameters.reason)
        let banned = parameters.userId
        try await governing(parameters.conversationId, alsoTo: banned) { writer, now in
            let (group, actor) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard try writer.user(id: banned) != nil else { throw ProtocolError(.notFound, "no such user", field: "userId") }
            let target = try writer.member(of: group.id, user: banned)
            try ConversationAccess.checkOutranks(actor, target, targetID: banned)
            try writer.saveBan(StoredBan(conversationID: group.id, userID: banned, bannedBy: user, reason: reason, createdAt: now))
            _ = try writer.deleteJoinRequest(in: group.id, user: banned)
            if target != nil {
                try writer.deleteMember(of: group.id, user: banned)
                membership.invalidate(group.id)
            }
            return try Self.notice(.memberBanned, in: group.id, actor: user, target: banned, now: now, writer: writer)
        }
    }

    /// Lifts a ban (the user may join again by the group's rules).
    public func unban(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        try await governing(parameters.conversationId) { writer, now in
            let (group, _) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard try writer.deleteBan(in: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not banned", field: "userId")
            }
            return try Self.notice(.memberUnbanned, in: group.id, actor: user, target: parameters.userId, now: now, writer: writer)
        }
    }

    /// The group's bans, oldest first (admins).
    public func bans(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> BanList {
        let limit = context.rules.maxListPage
        return try await context.gateway.read { reader in
            _ = try ConversationAccess.group(parameters.conversationId, admin: user, reader: reader)
            return try Self.banList(try reader.bans(in: parameters.conversationId, limit: limit), reader: reader)
        }
    }

    /// A member may read but not post until `until`.
    public func mute(by user: UserID, _ parameters: MuteMemberParameters) async throws(ProtocolError) {
        let membership = context.membership
        try await governing(parameters.conversationId) { writer, now in
            let (group, actor) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard let target = try writer.member(of: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not a member", field: "userId")
            }
            try ConversationAccess.checkOutranks(actor, target, targetID: parameters.userId)
            guard parameters.until > now else { throw ProtocolError(.invalidField, "a mute ends in the future", field: "until") }
            try writer.saveMute(in: group.id, user: parameters.userId, until: parameters.until)
            membership.invalidate(group.id)
            return try Self.notice(.memberMuted, in: group.id, actor: user, target: parameters.userId, now: now, writer: writer)
        }
    }

    /// Ends a mute early.
    public func unmute(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let membership = context.membership
        try await governing(parameters.conversationId) { writer, now in
            let (group, _) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard let until = try writer.mutedUntil(in: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that member is not muted", field: "userId")
            }
            _ = try writer.deleteMute(in: group.id, user: parameters.userId)
            membership.invalidate(group.id)
            // A mute that had run out ends quietly.
            guard until > now else { return nil }
            return try Self.notice(.memberUnmuted, in: group.id, actor: user, target: parameters.userId, now: now, writer: writer)
        }
    }

    /// A ban list with the banned users' profiles.
    static func banList(_ bans: [StoredBan], reader: StoreReader) throws -> BanList {
        let profiles = Dictionary(try MessagingContext.profiles(bans.map(\.userID), reader: reader).map { ($0.id, $0) },
                                  uniquingKeysWith: { a, _ in a })
        return BanList(bans: bans.compactMap { ban in
            profiles[ban.userID].map { ConversationBan(user: $0, bannedBy: ban.bannedBy, reason: ban.reason, createdAt: ban.createdAt) }
        })
    }

    /// A ban's reason, trimmed and within `maxBanReasonCharacters` (nil when empty).
    func validReason(_ raw: String?) throws(ProtocolError) -> String? {
        guard let raw else { return nil }
        let reason = raw.trimmingCharacters(in: " ")
        guard !reason.isEmpty else { return nil }
        let limit = context.rules.maxBanReasonCharacters
        guard reason.count <= limit, reason.utf8.count <= limit * 4 else {
            throw ProtocolError(.invalidField, "a reason has at most \(limit) characters", field: "reason")
        }
        return reason
    }

    /// One governance write: `change` (the permission and the change, returning its notice or
    /// nil when nothing changed), then the notice to the members and to `alsoTo` (someone the
    /// change put out, who should still hear it).
    func governing(_ conversation: ConversationID, alsoTo extra: UserID? = nil,
                   _ change: @escaping @Sendable (StoreWriter, Int64) throws -> Message?) async throws(ProtocolError) {
        _ = try await governing(conversation, alsoTo: extra, change) { _ in () }
    }

    /// `governing`, answering with what `answer` reads after the change in the same write.
    func governing<T: Sendable>(_ conversation: ConversationID, alsoTo extra: UserID? = nil,
                                _ change: @escaping @Sendable (StoreWriter, Int64) throws -> Message?,
                                answer: @escaping @Sendable (StoreReader) throws -> T) async throws(ProtocolError) -> T {
        let now = context.clock()
        let (message, members, result) = try await context.gateway.write { writer in
            let message = try change(writer, now)
            return (message, message == nil ? [] : try writer.memberIDs(of: conversation), try answer(writer))
        }
        if let message { context.announce([message], to: members + (extra.map { [$0] } ?? []), kind: .group, excluding: nil) }
        return result
    }
}
