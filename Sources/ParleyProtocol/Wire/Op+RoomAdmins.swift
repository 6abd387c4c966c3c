// A room's admins, appointed by its creator; they kick and ban beside the creator
// (docs/protocol.md, "Group governance").
extension Op {
    public enum RoomAdminAdd: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "room.admin.add"
    }

    public enum RoomAdminRemove: APIOperation {
        public typealias Parameters = MemberReference
        public typealias Result = EmptyPayload
        public static let name = "room.admin.remove"
    }

    public enum RoomAdmins: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = UserList
        public static let name = "room.admins"
    }
}
