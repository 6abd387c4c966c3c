extension Op {
    /// The first request of every WebSocket: signs the connection in with a session token.
    public enum Auth: APIOperation {
        public typealias Parameters = AuthParameters
        public typealias Result = AuthReply
        public static let name = "auth"
    }

    /// A round trip, with the server's clock.
    public enum Ping: APIOperation {
        public typealias Parameters = EmptyPayload
        public typealias Result = Pong
        public static let name = "ping"
    }

    /// The signed-in account.
    public enum MeGet: APIOperation {
        public typealias Parameters = EmptyPayload
        public typealias Result = Account
        public static let name = "me.get"
    }

    /// Changes the signed-in account's profile.
    public enum MeUpdate: APIOperation {
        public typealias Parameters = ProfileUpdate
        public typealias Result = Account
        public static let name = "me.update"
    }

    /// A user's public profile, by id or username.
    public enum UserGet: APIOperation {
        public typealias Parameters = UserLookup
        public typealias Result = UserProfile
        public static let name = "user.get"
    }
}
