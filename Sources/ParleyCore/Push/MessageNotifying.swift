public import ParleyProtocol

/// Hears of what may deserve a push notification to someone who is away: every new message
/// of a 1:1 or group conversation once it is stored and delivered, with its members, and
/// every new friend request. Called on the sender's event loop, so it must only hand the
/// work on.
public protocol MessageNotifying: Sendable {
    func stored(_ message: Message, for members: [UserID])
    func requested(_ request: FriendRequest)
}

extension MessageNotifying {
    /// Friend requests notify nobody unless the notifier says so.
    public func requested(_ request: FriendRequest) {}
}
