/// `typing` event: a participant started or stopped typing in a conversation. Never stored;
/// a `typing: true` without a refresh ends by itself after the server's typing timeout (the
/// server then sends `typing: false`).
public struct TypingNotice: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public var userId: UserID
    public var typing: Bool
    public init(conversationId: ConversationID, userId: UserID, typing: Bool) {
        self.conversationId = conversationId
        self.userId = userId
        self.typing = typing
    }
}

/// `conversation.receipt` event: the other person of a 1:1 conversation received
/// (`deliveredSeq`) or read (`readSeq`) up to a sequence number, so the sender's messages up
/// to it are delivered or read. One event per move of a marker, however many messages it
/// passed. `readSeq` is absent when either of the two turned read receipts off.
public struct ReceiptState: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    /// Who received or read.
    public var userId: UserID
    public var readSeq: Int64?
    public var deliveredSeq: Int64?
    public init(conversationId: ConversationID, userId: UserID, readSeq: Int64? = nil, deliveredSeq: Int64? = nil) {
        self.conversationId = conversationId
        self.userId = userId
        self.readSeq = readSeq
        self.deliveredSeq = deliveredSeq
    }
}

/// `message.readers`: who of a group has read the message at `seq`, a page at a time.
public struct ReadersParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var seq: Int64
    public var cursor: String?
    public var limit: Int?
    public init(conversationId: ConversationID, seq: Int64, cursor: String? = nil, limit: Int? = nil) {
        self.conversationId = conversationId
        self.seq = seq
        self.cursor = cursor
        self.limit = limit
    }
}

/// `message.readers` result: "read by `count` of `of`" (the members other than the sender)
/// and a page of the readers, by user id.
public struct ReaderPage: Codable, Sendable, Equatable {
    public var count: Int
    public var of: Int
    public var readers: [UserProfile]
    public var nextCursor: String?
    public init(count: Int, of: Int, readers: [UserProfile], nextCursor: String?) {
        self.count = count
        self.of = of
        self.readers = readers
        self.nextCursor = nextCursor
    }
}
