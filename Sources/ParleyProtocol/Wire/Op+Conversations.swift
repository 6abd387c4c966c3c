extension Op {
    public enum GroupCreate: APIOperation {
        public typealias Parameters = CreateParameters
        public typealias Result = GroupInfo
        public static let name = "group.create"
    }

    public enum GroupJoin: APIOperation {
        public typealias Parameters = NameReference
        public typealias Result = GroupInfo
        public static let name = "group.join"
    }

    public enum GroupLeave: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "group.leave"
    }

    public enum GroupGet: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = GroupInfo
        public static let name = "group.get"
    }

    public enum GroupMembers: APIOperation {
        public typealias Parameters = GroupMembersParameters
        public typealias Result = GroupMemberPage
        public static let name = "group.members"
    }

    public enum GroupUpdate: APIOperation {
        public typealias Parameters = ParleyProtocol.GroupUpdate
        public typealias Result = GroupInfo
        public static let name = "group.update"
    }

    public enum GroupRemove: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.remove"
    }

    public enum GroupTransfer: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = GroupInfo
        public static let name = "group.transfer"
    }

    public enum RoomCreate: APIOperation {
        public typealias Parameters = CreateParameters
        public typealias Result = RoomEntry
        public static let name = "room.create"
    }

    public enum RoomEnter: APIOperation {
        public typealias Parameters = NameReference
        public typealias Result = RoomEntry
        public static let name = "room.enter"
    }

    public enum RoomLeave: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "room.leave"
    }

    public enum RoomUpdate: APIOperation {
        public typealias Parameters = ParleyProtocol.GroupUpdate
        public typealias Result = RoomInfo
        public static let name = "room.update"
    }

    public enum RoomOccupants: APIOperation {
        public typealias Parameters = OccupantsParameters
        public typealias Result = UserList
        public static let name = "room.occupants"
    }
}

extension Op {
    /// The 1:1 conversation the caller has with a user (friends, or friends once: the history
    /// stays), without sending anything. `not_found` when they have none.
    public enum ConversationFind: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = ConversationReference
        public static let name = "conversation.find"
    }

    /// A room's public information by name or id, without entering it (rooms are open to
    /// anyone). `not_found` when there is no such room.
    public enum RoomFind: APIOperation {
        public typealias Parameters = RoomLookup
        public typealias Result = RoomInfo
        public static let name = "room.find"
    }
}
