public import ParleyProtocol

/// Hears of every new message of a 1:1 or group conversation once it is stored and
/// delivered, with its members: the push notifications of the members who are away. Called
/// on the sender's event loop, so it must only hand the work on.
public protocol MessageNotifying: Sendable {
    func stored(_ message: Message, for members: [UserID])
}
