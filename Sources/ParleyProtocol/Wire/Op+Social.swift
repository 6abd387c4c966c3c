extension Op {
    public enum FriendRequest: APIOperation {
        public typealias Parameters = FriendRequestParameters
        public typealias Result = FriendRequestOutcome
        public static let name = "friend.request"
    }

    public enum FriendAccept: APIOperation {
        public typealias Parameters = RequestReference
        public typealias Result = Friend
        public static let name = "friend.accept"
    }

    public enum FriendDecline: APIOperation {
        public typealias Parameters = RequestReference
        public typealias Result = EmptyPayload
        public static let name = "friend.decline"
    }

    public enum FriendList: APIOperation {
        public typealias Parameters = PageParameters
        public typealias Result = ParleyProtocol.FriendList
        public static let name = "friend.list"
    }

    public enum FriendRequests: APIOperation {
        public typealias Parameters = FriendRequestsParameters
        public typealias Result = FriendRequestList
        public static let name = "friend.requests"
    }

    public enum FriendRemove: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = EmptyPayload
        public static let name = "friend.remove"
    }

    public enum BlockAdd: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = EmptyPayload
        public static let name = "block.add"
    }

    public enum BlockRemove: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = EmptyPayload
        public static let name = "block.remove"
    }

    public enum BlockList: APIOperation {
        public typealias Parameters = PageParameters
        public typealias Result = UserList
        public static let name = "block.list"
    }

    public enum DiscoverDeck: APIOperation {
        public typealias Parameters = PageParameters
        public typealias Result = ParleyProtocol.DiscoverDeck
        public static let name = "discover.deck"
    }

    public enum DiscoverLike: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = LikeOutcome
        public static let name = "discover.like"
    }

    public enum DiscoverPass: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = EmptyPayload
        public static let name = "discover.pass"
    }

    public enum DiscoverUndo: APIOperation {
        public typealias Parameters = EmptyPayload
        public typealias Result = UndoOutcome
        public static let name = "discover.undo"
    }
}

extension Op {
    /// The resources (Jabber clients and native devices) a user, or one of the user's
    /// friends, is online on now, each with its `show` and `status`.
    public enum UserResources: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = ResourceList
        public static let name = "user.resources"
    }
}
