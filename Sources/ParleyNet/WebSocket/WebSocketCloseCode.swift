/// A WebSocket close status code (RFC 6455 §7.4). Named constants for the common ones; any
/// other code is made from its raw value.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as it travels in a close frame.
    public let rawValue: UInt16

    /// A code from its numeric value.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// A code from its numeric value.
    public init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigated away).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a kind of data the endpoint cannot accept (e.g. binary where only text is).
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: reported locally when a close frame had no code; never sent.
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: reported locally when the connection dropped without a close frame; never sent.
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: data inconsistent with the message type, e.g. invalid UTF-8 in a text message.
    public static let invalidPayloadData = WebSocketCloseCode(1007)
    /// 1008: a message violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message is too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client needed an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server hit an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// 1015: reported locally when the TLS handshake failed; never sent.
    public static let tlsHandshakeFailure = WebSocketCloseCode(1015)

    /// Whether the code may appear in a close frame. Per RFC 6455 §7.4: 1000–1003 and
    /// 1007–1011 are defined for the wire; 1004 is reserved; 1005, 1006 and 1015 are for
    /// local reporting only; the rest of 1000–2999 belongs to future specifications, of
    /// which 1012–1014 have since been registered with IANA (service restart, try again
    /// later, bad gateway) and are sent by real servers and proxies, so they are accepted;
    /// 3000–4999 are for libraries, frameworks and applications; below 1000 and from 5000
    /// up are never valid.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The numeric code, e.g. "1000".
    public var description: String { String(rawValue) }
}
