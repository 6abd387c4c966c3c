public import ParleyProtocol

/// A stanza error (RFC 6120 §8.3): its type, condition and text.
public struct StanzaError: Error, Sendable, Equatable {
    public var type: String
    public var condition: String
    public var text: String
    /// An application-specific condition (RFC 6120 §8.3.3.4), such as XEP-0363's
    /// `<file-too-large>`.
    public var application: XMLElement?

    public init(type: String, condition: String, _ text: String, application: XMLElement? = nil) {
        self.type = type
        self.condition = condition
        self.text = text
        self.application = application
    }

    public static func badRequest(_ text: String) -> StanzaError { StanzaError(type: "modify", condition: "bad-request", text) }
    public static func serviceUnavailable(_ text: String) -> StanzaError {
        StanzaError(type: "cancel", condition: "service-unavailable", text)
    }
    public static func itemNotFound(_ text: String) -> StanzaError { StanzaError(type: "cancel", condition: "item-not-found", text) }

    /// The XMPP form of a core error: the same rule, reported in XMPP's terms.
    public init(_ error: ProtocolError) {
        switch error.code {
        case .notFound: self.init(type: "cancel", condition: "item-not-found", error.message)
        case .notFriends, .notMember, .notOwner, .forbidden, .unauthorized: self.init(type: "auth", condition: "forbidden", error.message)
        case .blocked: self.init(type: "cancel", condition: "not-acceptable", error.message)
        // XEP-0045 §7.2.7, §7.2.6, §8: the banned are `forbidden`, as is someone not a
        // moderator who moderates; a room they may not yet join, `registration-required`.
        case .banned, .notAdmin: self.init(type: "auth", condition: "forbidden", error.message)
        case .inviteOnly: self.init(type: "auth", condition: "registration-required", error.message)
        case .tooManyAdmins: self.init(type: "cancel", condition: "not-allowed", error.message)
        case .muted: self.init(type: "modify", condition: "forbidden", error.message)
        case .inviteExpired, .inviteUsedUp, .inviteRevoked: self.init(type: "cancel", condition: "gone", error.message)
        case .unsupportedMediaType: self.init(type: "modify", condition: "not-acceptable", error.message)
        case .rateLimited, .tooManyAttempts, .quotaExceeded: self.init(type: "wait", condition: "resource-constraint", error.message)
        case .alreadyFriends, .nameTaken, .usernameTaken: self.init(type: "cancel", condition: "conflict", error.message)
        case .internalError, .unavailable: self.init(type: "wait", condition: "internal-server-error", error.message)
        case .badRequest, .invalidField, .missingField, .invalidName, .invalidUsername, .payloadTooLarge:
            self.init(type: "modify", condition: "bad-request", error.message)
        default: self.init(type: "cancel", condition: "undefined-condition", error.message)
        }
    }

    /// Any error of a stanza's handling in XMPP's terms.
    public static func from(_ error: any Error) -> StanzaError {
        if let error = error as? StanzaError { return error }
        if let error = error as? ProtocolError { return StanzaError(error) }
        return StanzaError(type: "wait", condition: "internal-server-error", "the server could not complete the request")
    }

    /// `<error>` as it goes inside an error stanza.
    public var element: XMLElement {
        XMLElement("error", ["type": type], children: [
            XMLElement(condition, namespace: Namespace.stanzaErrors),
            XMLElement("text", namespace: Namespace.stanzaErrors, [:], text: text),
        ] + (application.map { [$0] } ?? []))
    }

    /// The error reply to `stanza`: same name and id, addressed back to its sender.
    public func reply(to stanza: XMLElement, from: String?) -> XMLElement {
        XMLElement(stanza.name, ["type": "error", "id": stanza["id"], "from": stanza["to"] ?? from, "to": stanza["from"]],
                   children: [element])
    }
}
