/// What a `WebSocketFrameDecoder` produces: whole messages (fragments already reassembled),
/// control frames, and at most one terminal protocol error.
public enum WebSocketEvent: Sendable, Equatable {
    /// A complete text message, already checked to be valid UTF-8.
    case text(String)
    /// A complete binary message.
    case binary([UInt8])
    /// A ping; the application should answer with a pong carrying the same bytes.
    case ping([UInt8])
    /// A pong.
    case pong([UInt8])
    /// The peer started or answered the closing handshake. `code` is nil when the frame
    /// carried none (report 1005 locally); `reason` is empty when it carried none. The
    /// decoder ignores any input after this.
    case close(code: WebSocketCloseCode?, reason: String)
    /// The peer broke the protocol: send a close frame with this code and close the
    /// connection. The decoder ignores any input after this.
    case protocolError(WebSocketCloseCode, reason: String)
}
