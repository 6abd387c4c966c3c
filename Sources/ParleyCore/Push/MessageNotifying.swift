public import ParleyProtocol

/// Hears of what may deserve a push notification to someone who is away: every new message
/// of a 1:1 or group conversation once it is stored and delivered, with its members, and
/// every new friend request. Called on the sender's event loop, so it must only hand the
/// work on.
public protocol MessageNotifying: Sendable {
    func stored(_ message: Message, for members: [UserID])
    /// `stored(_:for:)` told which members had no connection on this server when the message
    /// was delivered (`FanOut.unconnectedHere`; nil: not known), so that it need not look them
    /// up again.
    func stored(_ message: Message, for members: [UserID], unconnectedHere: [UserID]?)
    func requested(_ request: FriendRequest)
}

extension MessageNotifying {
    /// A notifier that looks members up itself ignores what the delivery found.
    public func stored(_ message: Message, for members: [UserID], unconnectedHere: [UserID]?) {
        stored(message, for: members)
    }

    /// Friend requests notify nobody unless the notifier says so.
    public func requested(_ request: FriendRequest) {}
}
