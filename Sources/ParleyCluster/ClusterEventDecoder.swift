import Foundation
import ParleyCore
import ParleyProtocol

/// Turns a forwarded event's JSON back into the payload type the core sent, so the receiving
/// node's gateways (XMPP sessions render typed payloads) see exactly what a local event is.
enum ClusterEventDecoder {
    /// The typed payload of `event`, or nil for an event this build does not know or JSON
    /// that is not its payload.
    static func decode(_ event: String, _ json: Data) -> (any Encodable & Sendable)? {
        let decoder = JSONDecoder()
        switch event {
        case EventName.messageNew: return try? decoder.decode(Message.self, from: json)
        case EventName.conversationRead: return try? decoder.decode(ReadState.self, from: json)
        case EventName.friendRequest: return try? decoder.decode(FriendRequest.self, from: json)
        case EventName.friendAdded: return try? decoder.decode(Friend.self, from: json)
        case EventName.friendRemoved: return try? decoder.decode(UserReference.self, from: json)
        case EventName.presence: return try? decoder.decode(Presence.self, from: json)
        case EventName.meUpdated: return try? decoder.decode(Account.self, from: json)
        case EventName.forwardedStanza: return try? decoder.decode(ForwardedStanza.self, from: json)
        case EventName.signInSessionClosed: return try? decoder.decode(SignInSessionClosed.self, from: json)
        default: return nil
        }
    }
}
