import ParleyCore
import ParleyProtocol

/// Who a stream is signed in as: the user, their bare JID and the bound full JID.
typealias XMPPIdentity = (user: UserID, bare: JID, full: JID)

/// One feature of the gateway, answering the `iq` payloads of its namespaces (roster,
/// service discovery, blocking, …). Handlers hold no per-stream state: what they need of the
/// stream they serve comes through the `XMPPHandlerContext`, so one instance serves every
/// session and a test drives it against a fake context.
protocol XMPPHandler: Sendable {
    /// The payloads it answers, by namespace and element name.
    var payloads: [XMPPPayload] { get }
    /// What it adds to the server's service discovery (XEP-0030 `<feature var>`).
    var features: [String] { get }
    /// The result's payload for `request` (nil: an empty result), computed isolated to the
    /// stream's context. Throws a `StanzaError` or a core `ProtocolError`, which the session
    /// turns into the error reply.
    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement?
}

extension XMPPHandler {
    var features: [String] { [] }
}

/// An `iq` payload a handler answers: its namespace, and its element name (nil: any element
/// of the namespace).
struct XMPPPayload: Hashable, Sendable {
    var namespace: String
    var name: String?

    init(_ namespace: String, _ name: String? = nil) {
        self.namespace = namespace
        self.name = name
    }
}

/// One `iq` get or set, as a handler sees it.
struct XMPPRequest: Sendable {
    /// "get" or "set".
    var type: String
    /// The iq's only child.
    var query: XMLElement
    /// The iq's `to`, nil when it had none (the user's own account).
    var target: JID?
    /// Who sent it.
    var me: XMPPIdentity
    /// The server's domain.
    var domain: String

    /// Addressed to the server itself (no `to`, or the bare domain).
    var toServer: Bool { target == nil || target == JID(local: nil, domain: domain) }
    /// Addressed to the user's own account (no `to`, or their bare JID).
    var toSelf: Bool { target == nil || target?.bare == me.bare }

    /// The error for a payload this handler does not answer in this form (wrong type or
    /// address): as for a payload nobody answers.
    var unsupported: StanzaError {
        StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported here")
    }
}
