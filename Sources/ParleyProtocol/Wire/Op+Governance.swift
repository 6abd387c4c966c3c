// Group governance and room moderation (docs/protocol.md, "Group governance").
extension Op {
    public enum GroupAdminAdd: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.admin.add"
    }

    public enum GroupAdminRemove: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.admin.remove"
    }

    public enum GroupRequests: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = JoinRequestList
        public static let name = "group.requests"
    }

    public enum GroupRequestAccept: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.request.accept"
    }

    public enum GroupRequestDecline: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.request.decline"
    }

    public enum GroupInviteCreate: APIOperation {
        public typealias Parameters = InviteCreateParameters
        public typealias Result = GroupInvite
        public static let name = "group.invite.create"
    }

    public enum GroupInvites: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = GroupInviteList
        public static let name = "group.invites"
    }

    public enum GroupInviteRevoke: APIOperation {
        public typealias Parameters = InviteToken
        public typealias Result = EmptyPayload
        public static let name = "group.invite.revoke"
    }

    public enum GroupInvitePreview: APIOperation {
        public typealias Parameters = InviteToken
        public typealias Result = GroupPreview
        public static let name = "group.invite.preview"
    }

    public enum GroupInviteJoin: APIOperation {
        public typealias Parameters = InviteToken
        public typealias Result = GroupInfo
        public static let name = "group.invite.join"
    }

    /// A member invites a friend (who hears `group.invited`).
    public enum GroupInviteFriend: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = GroupInvite
        public static let name = "group.invite.friend"
    }

    public enum GroupBan: APIOperation {
        public typealias Parameters = BanParameters
        public typealias Result = EmptyPayload
        public static let name = "group.ban"
    }

    public enum GroupUnban: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.unban"
    }

    public enum GroupBans: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = BanList
        public static let name = "group.bans"
    }

    public enum GroupMute: APIOperation {
        public typealias Parameters = MuteMemberParameters
        public typealias Result = EmptyPayload
        public static let name = "group.mute"
    }

    public enum GroupUnmute: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.unmute"
    }

    public enum RoomKick: APIOperation {
        public typealias Parameters = BanParameters
        public typealias Result = EmptyPayload
        public static let name = "room.kick"
    }

    public enum RoomBan: APIOperation {
        public typealias Parameters = BanParameters
        public typealias Result = EmptyPayload
        public static let name = "room.ban"
    }

    public enum RoomUnban: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "room.unban"
    }

    public enum RoomBans: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = BanList
        public static let name = "room.bans"
    }
}
