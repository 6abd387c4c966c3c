import ParleyCore
import ParleyNet
import ParleyProtocol

/// What a handler sees of the stream it serves. `XMPPSession` is the real one; tests use a
/// context that records what was sent. An actor: a handler runs isolated to it (on the
/// session's loop), so these calls are plain synchronous ones.
protocol XMPPHandlerContext: Actor {
    /// The core services and the gateway's configuration.
    var services: XMPPServices { get }
    /// The stream's connection token: events it causes leave it out.
    var token: ConnectionToken { get }
    /// The handler table the stream dispatches through (disco lists its features).
    var handlers: XMPPHandlerTable { get }
    /// Sends a stanza to the client (stream management counts it).
    func send(_ element: XMLElement)
    /// Remembers a friend's address and 1:1 conversation for the stream's later stanzas.
    func learn(_ friend: Friend)
    /// Whether the client gets copies of what the user sends elsewhere (XEP-0280).
    func setCarbons(_ enabled: Bool)
    /// The signed-in account changed (its profile was updated by this stream).
    func accountChanged(_ account: Account)
    /// The conversation and kind of a group chat this stream has joined, by the room's JID.
    func joinedChat(_ room: JID) -> (ConversationID, ConversationKind)?
}
