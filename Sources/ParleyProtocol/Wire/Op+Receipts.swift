extension Op {
    /// The user is typing in a conversation; repeated every few seconds while they type
    /// (docs/protocol.md, "Receipts and typing").
    public enum TypingStart: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "typing.start"
    }

    /// The user stopped typing (or sent the message).
    public enum TypingStop: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "typing.stop"
    }

    /// Who of a group has read a message, with the count.
    public enum MessageReaders: APIOperation {
        public typealias Parameters = ReadersParameters
        public typealias Result = ReaderPage
        public static let name = "message.readers"
    }
}

extension Op {
    /// The user's privacy choices about receipts, typing and last seen.
    public enum PrivacyGet: APIOperation {
        public typealias Parameters = EmptyPayload
        public typealias Result = PrivacySettings
        public static let name = "privacy.get"
    }

    /// Replaces the user's privacy choices; their other connections hear `privacy.updated`.
    public enum PrivacySet: APIOperation {
        public typealias Parameters = PrivacySettings
        public typealias Result = PrivacySettings
        public static let name = "privacy.set"
    }
}

extension Op {
    /// Whether a user is online or when they were last seen, as their privacy choice allows.
    public enum UserLastSeen: APIOperation {
        public typealias Parameters = UserReference
        public typealias Result = LastSeen
        public static let name = "user.lastSeen"
    }
}
