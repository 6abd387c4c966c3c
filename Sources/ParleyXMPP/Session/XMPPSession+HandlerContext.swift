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

    func joinedConversation(_ room: JID) -> ConversationID? {
        joinedRoom(room)?.0
    }
}
