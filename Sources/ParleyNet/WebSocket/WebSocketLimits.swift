/// Size limits a WebSocket decoder enforces so a peer cannot make it buffer without bound.
/// Crossing either one ends the connection with close code 1009 (message too big).
public struct WebSocketLimits: Sendable, Equatable {
    /// The largest payload one frame may declare, in bytes.
    public var maxFrameSize: Int
    /// The largest payload a whole (possibly fragmented) data message may have, in bytes.
    public var maxMessageSize: Int

    /// Limits of `maxFrameSize` per frame (64 KiB unless given) and `maxMessageSize` per
    /// reassembled message (1 MiB unless given).
    public init(maxFrameSize: Int = 64 * 1024, maxMessageSize: Int = 1024 * 1024) {
        precondition(maxFrameSize >= 0 && maxMessageSize >= 0, "WebSocket limits cannot be negative")
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
    }
}
