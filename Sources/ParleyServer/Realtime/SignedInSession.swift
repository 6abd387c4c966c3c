import ParleyCore
import ParleyProtocol

/// What a signed-in WebSocket keeps of its sign-in for its whole life: the user, and the
/// session's id packed (`PackedSessionID`) so that it needs no heap object of its own.
struct SignedInSession: Sendable {
    let userID: UserID
    let sessionID: PackedSessionID

    init(_ session: AuthenticatedSession) {
        userID = session.userID
        sessionID = PackedSessionID(session.sessionID)
    }

    /// The session as the services take it (makes the id's text).
    var authenticated: AuthenticatedSession {
        AuthenticatedSession(userID: userID, sessionID: sessionID.string)
    }
}
