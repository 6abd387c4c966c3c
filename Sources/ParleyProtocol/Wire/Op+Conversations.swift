extension Op {
    public enum GroupCreate: Operation {
        public typealias Parameters = CreateParameters
        public typealias Result = GroupInfo
        public static let name = "group.create"
    }

    public enum GroupJoin: Operation {
        public typealias Parameters = NameReference
        public typealias Result = GroupInfo
        public static let name = "group.join"
    }

    public enum GroupLeave: Operation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "group.leave"
    }

    public enum GroupGet: Operation {
        public typealias Parameters = ConversationReference
        public typealias Result = GroupInfo
        public static let name = "group.get"
    }

    public enum GroupMembers: Operation {
        public typealias Parameters = GroupMembersParameters
        public typealias Result = GroupMemberPage
        public static let name = "group.members"
    }

    public enum GroupUpdate: Operation {
        public typealias Parameters = ParleyProtocol.GroupUpdate
        public typealias Result = GroupInfo
        public static let name = "group.update"
    }

    public enum GroupRemove: Operation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "group.remove"
    }

    public enum GroupTransfer: Operation {
        public typealias Parameters = MemberReference
        public typealias Result = GroupInfo
        public static let name = "group.transfer"
    }

    public enum RoomCreate: Operation {
        public typealias Parameters = CreateParameters
        public typealias Result = RoomEntry
        public static let name = "room.create"
    }

    public enum RoomEnter: Operation {
        public typealias Parameters = NameReference
        public typealias Result = RoomEntry
        public static let name = "room.enter"
    }

    public enum RoomLeave: Operation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "room.leave"
    }

    public enum RoomUpdate: Operation {
        public typealias Parameters = ParleyProtocol.GroupUpdate
        public typealias Result = RoomInfo
        public static let name = "room.update"
    }

    public enum RoomOccupants: Operation {
        public typealias Parameters = OccupantsParameters
        public typealias Result = UserList
        public static let name = "room.occupants"
    }
}
