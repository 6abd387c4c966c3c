/// What the parser found in a client's stream, in order.
public enum XMLStreamEvent: Sendable, Equatable {
    /// `<stream:stream ...>`: its attributes, and the default namespace it declared.
    case streamOpened(attributes: [XMLAttribute], defaultNamespace: String)
    /// A complete top-level element (a stanza, or a stream-level element such as SASL's).
    case stanza(XMLElement)
    /// `</stream:stream>`.
    case streamClosed
}

/// Why the stream cannot go on: a stream error's condition (RFC 6120 §4.9.3) and a text for
/// the client's log.
public struct XMLStreamError: Error, Sendable, Equatable {
    public var condition: StreamErrorCondition
    public var text: String

    public init(_ condition: StreamErrorCondition, _ text: String) {
        self.condition = condition
        self.text = text
    }
}

/// The stream error conditions Parley sends (RFC 6120 §4.9.3).
public enum StreamErrorCondition: String, Sendable, Equatable {
    case badFormat = "bad-format"
    case connectionTimeout = "connection-timeout"
    case conflict
    case hostUnknown = "host-unknown"
    case internalServerError = "internal-server-error"
    case invalidNamespace = "invalid-namespace"
    case notAuthorized = "not-authorized"
    case notWellFormed = "not-well-formed"
    case policyViolation = "policy-violation"
    case resourceConstraint = "resource-constraint"
    case restrictedXML = "restricted-xml"
    case systemShutdown = "system-shutdown"
    case unsupportedEncoding = "unsupported-encoding"
    case unsupportedStanzaType = "unsupported-stanza-type"
    case unsupportedVersion = "unsupported-version"
}
