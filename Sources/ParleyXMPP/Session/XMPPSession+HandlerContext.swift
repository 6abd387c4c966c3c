import ParleyCore
import ParleyProtocol

// The session as its handlers see it (`XMPPHandlerContext`); `send`, `learn`, `token`,
// `services` and `handlers` are the session's own.
extension XMPPSession: XMPPHandlerContext {
    func setCarbons(_ enabled: Bool) {
        state.carbons = enabled
    }

    func accountChanged(_ account: Account) {
        state.account = account
    }

    func joinedChat(_ room: JID) -> (ConversationID, ConversationKind)? {
        joinedRoom(room).map { ($0.0, $0.1.kind) }
    }
}
