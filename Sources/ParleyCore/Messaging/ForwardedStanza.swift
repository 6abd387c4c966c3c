/// A `<message>` one XMPP session hands a peer's sessions past the store: chat states and
/// receipts (XEP-0085, XEP-0184) and invitations (XEP-0045 §7.8.2, XEP-0249), which Parley
/// does not keep; or a resource's `<presence>` (RFC 6121 §4), broadcast per resource. A gateway-only event: the hub gives it to typed receivers (XMPP sessions)
/// only, and in a cluster it travels to the recipient's other servers like any event. Each
/// receiving session addresses it to its own full JID.
public struct ForwardedStanza: Codable, Sendable, Equatable {
    /// The stanza's element name: `presence`, or nil for `message`.
    public var stanza: String?
    /// The stanza's `type` attribute (`chat`, `normal`), if it has one.
    public var type: String?
    /// The stanza's `id` attribute, if it had one.
    public var id: String?
    /// The sender's JID (a full JID, or a room's), set by the server.
    public var from: String
    /// The stanza's child elements, serialized by the sender's session.
    public var children: String

    public init(stanza: String? = nil, type: String?, id: String?, from: String, children: String) {
        self.stanza = stanza
        self.type = type
        self.id = id
        self.from = from
        self.children = children
    }
}
