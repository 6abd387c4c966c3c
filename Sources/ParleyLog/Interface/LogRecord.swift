/// One entry of a message log: a payload at a conversation's sequence number.
public struct LogRecord: Sendable, Equatable {
    /// The conversation the record belongs to.
    public var conversation: UInt64
    /// Its place in the conversation: 1, 2, 3 … with no gaps.
    public var seq: UInt64
    /// The bytes stored (the log does not look inside).
    public var payload: [UInt8]

    /// A record of `conversation` at `seq`.
    public init(conversation: UInt64, seq: UInt64, payload: [UInt8]) {
        self.conversation = conversation
        self.seq = seq
        self.payload = payload
    }
}
