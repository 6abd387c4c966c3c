import ParleyCore
import ParleyProtocol

/// What reaches an XMPP session from outside its stream: a server event, or a stanza another
/// session handed this user's sessions (`ConnectionRegistry.forward`). Kept in order while a
/// session holds them back (`XMPPSession.heldEvents`).
enum GatewayEvent: Sendable {
    case server(ServerEvent)
    case forwarded(ForwardedStanza)

    /// The message of a `message.new`, if this is one.
    var message: Message? {
        if case .server(.messageNew(let message)) = self { return message }
        return nil
    }
}
