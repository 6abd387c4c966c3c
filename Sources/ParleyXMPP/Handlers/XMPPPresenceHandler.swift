/// A feature answering `<presence>` of some types that a client addresses to a user
/// (subscriptions). Registered by type in `XMPPHandlerTable`; like `XMPPHandler`, it holds
/// no per-stream state and runs isolated to the stream's context.
protocol XMPPPresenceHandler: Sendable {
    /// The presence types it handles ("subscribe", …).
    var presenceTypes: [String] { get }
    /// Handles `presence` to `target` (a user's JID, already parsed) from `me`.
    func handle(_ presence: XMLElement, to target: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async
}
