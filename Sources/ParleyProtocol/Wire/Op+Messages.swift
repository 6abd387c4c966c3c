extension Op {
    /// Stores a message and answers with it; the hot path (read by `FrameReader` without
    /// `JSONDecoder`, run on the connection's loop).
    public enum MessageSend: APIOperation {
        public typealias Parameters = SendParameters
        public typealias Result = Message
        public static let name = "message.send"
    }

    public enum MessageHistory: APIOperation {
        public typealias Parameters = HistoryParameters
        public typealias Result = MessagePage
        public static let name = "message.history"
    }

    public enum ConversationList: APIOperation {
        public typealias Parameters = EmptyPayload
        public typealias Result = ParleyProtocol.ConversationList
        public static let name = "conversation.list"
    }

    public enum ConversationRead: APIOperation {
        public typealias Parameters = ReadParameters
        public typealias Result = ReadState
        public static let name = "conversation.read"
    }

    public enum Sync: APIOperation {
        public typealias Parameters = SyncParameters
        public typealias Result = SyncResult
        public static let name = "sync"
    }
}
