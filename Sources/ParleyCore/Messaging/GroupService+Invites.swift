public import ParleyProtocol

// Invite links and members' invitations (docs/protocol.md, "Group governance").
extension GroupService {
    /// How long a member's invitation of a friend stays usable, ms.
    static let invitationLifetime: Int64 = 7 * 24 * 3_600_000
    /// Bounds of a link's `expiresIn` (seconds) and `maxUses`.
    static let inviteLifetimes = 60...(366 * 24 * 3600)
    static let inviteUses = 1...1_000_000

    /// An admin makes an invite link; the token goes in the link.
    public func createInvite(by user: UserID, _ parameters: InviteCreateParameters) async throws(ProtocolError) -> GroupInvite {
        if let expiresIn = parameters.expiresIn, !Self.inviteLifetimes.contains(expiresIn) {
            throw ProtocolError(.invalidField, "expiresIn is between \(Self.inviteLifetimes.lowerBound) and \(Self.inviteLifetimes.upperBound) seconds",
                                field: "expiresIn")
        }
        if let maxUses = parameters.maxUses, !Self.inviteUses.contains(maxUses) {
            throw ProtocolError(.invalidField, "maxUses is between 1 and \(Self.inviteUses.upperBound)", field: "maxUses")
        }
        let now = context.clock()
        let limit = context.rules.maxGroupInvites
        let token = context.secrets.identifier()
        return try await context.gateway.write { writer in
            let (group, _) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            let usable = try writer.invites(in: group.id, limit: limit + 1).filter { Self.problem(with: $0, now: now) == nil }
            guard usable.count < limit else {
                throw ProtocolError(.invalidField, "a group has at most \(limit) usable invite links; revoke one first")
            }
            let invite = StoredInvite(token: token, conversationID: group.id, createdBy: user, createdAt: now,
                                      expiresAt: parameters.expiresIn.map { now + Int64($0) * 1000 }, maxUses: parameters.maxUses)
            try writer.insertInvite(invite)
            return Self.wire(invite)
        }
    }

    /// The group's usable links, newest first (admins).
    public func invites(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> GroupInviteList {
        let now = context.clock()
        let limit = context.rules.maxGroupInvites
        return try await context.gateway.read { reader in
            _ = try ConversationAccess.group(parameters.conversationId, admin: user, reader: reader)
            return GroupInviteList(invites: try reader.invites(in: parameters.conversationId, limit: limit * 4)
                .filter { Self.problem(with: $0, now: now) == nil }.prefix(limit).map(Self.wire))
        }
    }

    /// An admin (or whoever made it) revokes a link; it stops working at once.
    public func revokeInvite(by user: UserID, _ parameters: InviteToken) async throws(ProtocolError) {
        try await context.gateway.write { writer in
            guard var invite = try writer.invite(token: parameters.token) else {
                throw ProtocolError(.notFound, "no such invite", field: "token")
            }
            if invite.createdBy != user { _ = try ConversationAccess.group(invite.conversationID, admin: user, reader: writer) }
            invite.revoked = true
            try writer.updateInvite(invite)
        }
    }

    /// What a link leads to, before joining: anyone signed in may look.
    public func preview(for user: UserID, _ parameters: InviteToken) async throws(ProtocolError) -> GroupPreview {
        let now = context.clock()
        return try await context.gateway.read { reader in
            let invite = try Self.usableInvite(parameters.token, for: user, now: now, reader: reader)
            return try Self.preview(of: invite.conversationID, reader: reader)
        }
    }

    /// Joins through a link (or an invitation): whatever the join mode, since an admin (or a
    /// member, for a friend) let the holder in; never for the banned.
    public func join(by user: UserID, _ parameters: InviteToken) async throws(ProtocolError) -> GroupInfo {
        let membership = context.membership
        let now = context.clock()
        let (info, message, members) = try await context.gateway.write { writer in
            var invite = try Self.usableInvite(parameters.token, for: user, now: now, reader: writer)
            guard let group = try writer.conversation(id: invite.conversationID) else { throw ProtocolError(.notFound, "no such group") }
            if try writer.member(of: group.id, user: user) != nil {
                return (try Self.info(group.id, for: user, reader: writer), nil as Message?, [UserID]())
            }
            try Self.checkNotBanned(user, from: group.id, reader: writer)
            invite.uses += 1
            try writer.updateInvite(invite)
            let message = try Self.admit(user, to: group, policy: try Self.policy(of: group.id, reader: writer), now: now,
                                         writer: writer, membership: membership)
            return (try Self.info(group.id, for: user, reader: writer), message, try writer.memberIDs(of: group.id))
        }
        if let message { context.announce([message], to: members, kind: .group, excluding: nil) }
        return info
    }

    /// A member invites a friend, who hears `group.invited` and joins with its token (or by
    /// the group's name or address). On an `approval` group only admins' invitations let
    /// someone past the queue.
    public func inviteFriend(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) -> GroupInvite {
        let now = context.clock()
        let token = context.secrets.identifier()
        let friend = parameters.userId
        let (invite, preview) = try await context.gateway.write { writer in
            let (group, member) = try ConversationAccess.group(parameters.conversationId, member: user, reader: writer)
            let policy = try Self.policy(of: group.id, reader: writer)
            if policy.joinMode == .approval, member.role == .member {
                throw ProtocolError(.notAdmin, "in this group only admins invite; a friend may ask to join")
            }
            guard try writer.friendship(of: user, with: friend) != nil else {
                throw ProtocolError(.notFriends, "you invite your friends", field: "userId")
            }
            guard try writer.member(of: group.id, user: friend) == nil else {
                throw ProtocolError(.invalidField, "that user is a member already", field: "userId")
            }
            try Self.checkNotBanned(friend, from: group.id, reader: writer)
            let invite = StoredInvite(token: token, conversationID: group.id, createdBy: user, invitee: friend, createdAt: now,
                                      expiresAt: now + Self.invitationLifetime, maxUses: 1)
            try writer.insertInvite(invite)
            return (Self.wire(invite), try Self.preview(of: group.id, reader: writer))
        }
        _ = context.delivery.deliver(.groupInvited(GroupInvitation(group: preview, inviter: user, token: invite.token)),
                                     to: [friend], excluding: nil)
        return invite
    }

    /// The invite behind `token` if `user` may use it now, else why not.
    static func usableInvite(_ token: String, for user: UserID, now: Int64, reader: StoreReader) throws -> StoredInvite {
        guard token.utf8.count <= 128, let invite = try reader.invite(token: token),
              invite.invitee == nil || invite.invitee == user else {
            throw ProtocolError(.notFound, "no such invite", field: "token")
        }
        if let problem = problem(with: invite, now: now) { throw problem }
        return invite
    }

    /// Why an invite cannot be used now, or nil.
    static func problem(with invite: StoredInvite, now: Int64) -> ProtocolError? {
        if invite.revoked { return ProtocolError(.inviteRevoked, "this invite was revoked") }
        if let expiresAt = invite.expiresAt, expiresAt <= now { return ProtocolError(.inviteExpired, "this invite has expired") }
        if let maxUses = invite.maxUses, invite.uses >= maxUses { return ProtocolError(.inviteUsedUp, "this invite was used up") }
        return nil
    }

    static func preview(of id: ConversationID, reader: StoreReader) throws -> GroupPreview {
        guard let group = try reader.conversation(id: id), group.kind == .group, let name = group.name else {
            throw ProtocolError(.notFound, "no such group")
        }
        return GroupPreview(id: id, name: name, avatar: group.avatar, description: group.description,
                            memberCount: try reader.memberCount(of: id), joinMode: try policy(of: id, reader: reader).joinMode)
    }

    static func wire(_ invite: StoredInvite) -> GroupInvite {
        GroupInvite(token: invite.token, conversationId: invite.conversationID, createdBy: invite.createdBy, createdAt: invite.createdAt,
                    expiresAt: invite.expiresAt, maxUses: invite.maxUses, uses: invite.uses, invitee: invite.invitee)
    }
}
