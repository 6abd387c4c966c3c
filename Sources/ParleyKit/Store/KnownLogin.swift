/// Someone who signed in on this device before: seed 000's login page prefills the last
/// username and shows that user's avatar.
public struct KnownLogin: Sendable, Equatable {
    /// The username they signed in with.
    public var username: String
    /// Their avatar when they last signed in.
    public var avatar: String?
    /// When, ms since the epoch.
    public var lastSignIn: Int64

    /// Creates a record.
    public init(username: String, avatar: String?, lastSignIn: Int64) {
        self.username = username
        self.avatar = avatar
        self.lastSignIn = lastSignIn
    }
}
