/// A sign-in session ended (signed out, or revoked from another device): every WebSocket that
/// signed in with it must close, on whichever server of a cluster it is connected. Travels as
/// a control event through `Delivery` to the session owner's connections; the hub acts on it
/// and never sends it to a client.
public struct SignInSessionClosed: Codable, Sendable, Equatable {
    /// The ended session's id.
    public var sessionId: String

    public init(sessionId: String) {
        self.sessionId = sessionId
    }
}
