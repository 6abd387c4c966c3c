public import ParleyProtocol

/// Who is making a request: the user and the session their token belongs to.
public struct AuthenticatedSession: Sendable, Equatable {
    public var userID: UserID
    public var sessionID: String

    public init(userID: UserID, sessionID: String) {
        self.userID = userID
        self.sessionID = sessionID
    }
}
