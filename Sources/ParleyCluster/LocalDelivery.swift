public import ParleyCore
public import ParleyProtocol

/// This server's own connections, as the cluster sees them: the in-process hub delivers to
/// them, names who is connected here (for heartbeats) and tells when a user's first
/// connection comes or last one goes.
public protocol LocalDelivery: Delivery, ConnectionRegistry {
    /// Every user with at least one connection on this server.
    var connectedUsers: [UserID] { get }
}
