/// What one XMPP session hands a peer's sessions past the store: chat states and receipts
/// (XEP-0085, XEP-0184), which Parley does not keep. A gateway-only event: the hub gives it to
/// typed receivers (XMPP sessions) only, and in a cluster it travels to the recipient's other
/// servers like any event. Each receiving session addresses it to its own full JID.
public struct ForwardedStanza: Codable, Sendable, Equatable {
    /// The stanza's `type` attribute (`chat` or `normal`).
    public var type: String
    /// The stanza's `id` attribute, if it had one.
    public var id: String?
    /// The sender's full JID, set by the server.
    public var from: String
    /// The chat state and receipt elements, serialized by the sender's session.
    public var signals: String

    public init(type: String, id: String?, from: String, signals: String) {
        self.type = type
        self.id = id
        self.from = from
        self.signals = signals
    }
}
