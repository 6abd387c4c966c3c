public import ParleyProtocol

/// Who is making a request: the user and the session their token belongs to.
public struct AuthenticatedSession: Sendable, Equatable {
    public var userID: UserID
    public var sessionID: String

    /// What connections that signed in with the password itself, not a stored session (XMPP
    /// streams), count as signed in with: closing it (`ConnectionRegistry.closeConnections`)
    /// ends them when the password changes, the devices are signed out, or the account goes.
    /// Stored session ids are random and never take this value.
    public static let passwordSignIn = "password-sign-in"

    public init(userID: UserID, sessionID: String) {
        self.userID = userID
        self.sessionID = sessionID
    }
}
