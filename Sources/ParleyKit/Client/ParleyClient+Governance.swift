public import ParleyProtocol

// Group governance and room moderation (docs/protocol.md, "Group governance"): one call per
// operation, named as an app would say it.
extension ParleyClient {
    /// `group.admin.add`: the owner makes a member an admin. Errors: `not_owner`, `not_found`, `too_many_admins`.
    public func makeAdmin(_ userId: UserID, in conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupAdminAdd.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `group.admin.remove`: the owner makes an admin a member again. Errors: `not_owner`, `not_found`.
    public func removeAdmin(_ userId: UserID, in conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupAdminRemove.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `group.requests`: pending join requests, oldest first (admins). Error: `not_admin`.
    public func joinRequests(_ conversation: ConversationID) async throws(ParleyError) -> [JoinRequest] {
        try await call(Op.GroupRequests.self, ConversationReference(conversationId: conversation)).requests
    }

    /// `group.request.accept` or `group.request.decline`. Errors: `not_admin`, `not_found`, `banned`.
    public func answerJoinRequest(of userId: UserID, in conversation: ConversationID, accept: Bool) async throws(ParleyError) {
        let member = MemberReference(conversationId: conversation, userId: userId)
        let _: EmptyPayload = accept
            ? try await call(Op.GroupRequestAccept.self, member)
            : try await call(Op.GroupRequestDecline.self, member)
    }

    /// `group.invite.create`: a link (its token), optionally ending after `expiresIn` seconds or `maxUses` joins.
    public func createInvite(_ conversation: ConversationID, expiresIn: Int? = nil, maxUses: Int? = nil) async throws(ParleyError) -> GroupInvite {
        try await call(Op.GroupInviteCreate.self, InviteCreateParameters(conversationId: conversation, expiresIn: expiresIn, maxUses: maxUses))
    }

    /// `group.invites`: the group's usable links, newest first (admins).
    public func invites(_ conversation: ConversationID) async throws(ParleyError) -> [GroupInvite] {
        try await call(Op.GroupInvites.self, ConversationReference(conversationId: conversation)).invites
    }

    /// `group.invite.revoke`: the link stops working at once.
    public func revokeInvite(_ token: String) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupInviteRevoke.self, InviteToken(token: token))
    }

    /// `group.invite.preview`: what a link leads to, before joining.
    /// Errors: `not_found`, `invite_expired`, `invite_used_up`, `invite_revoked`.
    public func previewInvite(_ token: String) async throws(ParleyError) -> GroupPreview {
        try await call(Op.GroupInvitePreview.self, InviteToken(token: token))
    }

    /// `group.invite.join`: joins through a link or an invitation. Errors: as `previewInvite`, and `banned`.
    public func joinGroup(invite token: String) async throws(ParleyError) -> GroupInfo {
        let info = try await call(Op.GroupInviteJoin.self, InviteToken(token: token))
        try? store.setGroup(info)
        scheduleConversationRefresh()
        return info
    }

    /// `group.invite.friend`: invites a friend, who hears `group.invited`. Errors: `not_friends`, `not_admin`, `banned`.
    public func inviteFriend(_ userId: UserID, to conversation: ConversationID) async throws(ParleyError) -> GroupInvite {
        try await call(Op.GroupInviteFriend.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `group.ban`: removes and bars the user by id. Errors: `not_admin`, `not_owner`, `not_found`.
    public func ban(_ userId: UserID, from conversation: ConversationID, reason: String? = nil) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupBan.self, BanParameters(conversationId: conversation, userId: userId, reason: reason))
    }

    /// `group.unban`. Errors: `not_admin`, `not_found`.
    public func unban(_ userId: UserID, from conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupUnban.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `group.bans`: oldest first (admins).
    public func bans(_ conversation: ConversationID) async throws(ParleyError) -> [ConversationBan] {
        try await call(Op.GroupBans.self, ConversationReference(conversationId: conversation)).bans
    }

    /// `group.mute`: the member reads but may not post until `until` (ms). Errors: `not_admin`, `not_owner`, `not_found`.
    public func mute(_ userId: UserID, in conversation: ConversationID, until: Int64) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupMute.self, MuteMemberParameters(conversationId: conversation, userId: userId, until: until))
    }

    /// `group.unmute`. Errors: `not_admin`, `not_found`.
    public func unmute(_ userId: UserID, in conversation: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.GroupUnmute.self, MemberReference(conversationId: conversation, userId: userId))
    }

    /// `room.kick` (or with `ban`, `room.ban`): the room's creator or an admin puts someone out
    /// (a ban also bars them by id, in the room or not). Errors: `not_admin`, `not_owner` (on the
    /// creator), `not_member` (a kick of someone not in the room), `not_found`.
    public func kick(_ userId: UserID, from room: ConversationID, ban: Bool = false, reason: String? = nil) async throws(ParleyError) {
        let parameters = BanParameters(conversationId: room, userId: userId, reason: reason)
        let _: EmptyPayload = ban ? try await call(Op.RoomBan.self, parameters) : try await call(Op.RoomKick.self, parameters)
    }

    /// `room.unban`. Errors: `not_admin`, `not_found`.
    public func unbanFromRoom(_ userId: UserID, room: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.RoomUnban.self, MemberReference(conversationId: room, userId: userId))
    }

    /// `room.bans`: the room's bans, oldest first (its creator and admins). Error: `not_admin`.
    public func roomBans(_ room: ConversationID) async throws(ParleyError) -> [ConversationBan] {
        try await call(Op.RoomBans.self, ConversationReference(conversationId: room)).bans
    }

    /// `room.admin.add`: the room's creator makes a user (in the room or not) its admin.
    /// Errors: `not_owner`, `not_found`, `banned`, `too_many_admins`, `invalid_field` (yourself).
    public func makeRoomAdmin(_ userId: UserID, in room: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.RoomAdminAdd.self, MemberReference(conversationId: room, userId: userId))
    }

    /// `room.admin.remove`: the room's creator takes the role away. Errors: `not_owner`, `not_found` (not an admin).
    public func removeRoomAdmin(_ userId: UserID, in room: ConversationID) async throws(ParleyError) {
        let _: EmptyPayload = try await call(Op.RoomAdminRemove.self, MemberReference(conversationId: room, userId: userId))
    }

    /// `room.admins`: the room's admins (its creator, `RoomInfo.ownerId`, is not listed), for
    /// anyone in the room and for its creator and admins. Errors: `not_member`, `not_found`.
    public func roomAdmins(_ room: ConversationID) async throws(ParleyError) -> [UserProfile] {
        try await call(Op.RoomAdmins.self, ConversationReference(conversationId: room)).users
    }
}
