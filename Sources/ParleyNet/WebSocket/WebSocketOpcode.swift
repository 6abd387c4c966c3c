/// The opcode of a WebSocket frame (RFC 6455 §5.2). Values outside these are reserved and,
/// with no extension negotiated, a protocol error.
public enum WebSocketOpcode: UInt8, Sendable, CaseIterable {
    /// A further fragment of the message in progress.
    case continuation = 0x0
    /// The first (or only) frame of a UTF-8 text message.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// Starts or answers the closing handshake.
    case close = 0x8
    /// Asks the peer for a pong.
    case ping = 0x9
    /// Answers a ping, or serves as an unsolicited heartbeat.
    case pong = 0xA

    /// Control frames (close, ping, pong) may not be fragmented, carry at most 125 bytes,
    /// and may arrive between the fragments of a data message.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
