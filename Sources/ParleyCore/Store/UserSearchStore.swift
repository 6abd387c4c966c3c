public import ParleyProtocol

/// Finding people by name (part of `StoreReader`).
public protocol UserSearchReader {
    /// Up to `limit` users, ascending id, whose lowercased username or nickname starts with
    /// `prefix` (lowercased by the caller): never `searcher`, never anyone who turned
    /// `findable` off, never anyone who blocked `searcher`.
    func searchUsers(prefix: String, searcher: UserID, limit: Int) throws -> [StoredUser]
    /// Whether `user.search` finds `user` (true unless they turned it off).
    func isFindable(_ user: UserID) throws -> Bool
}

/// The findable setting (part of `StoreWriter`).
public protocol UserSearchWriter: UserSearchReader {
    func setFindable(_ user: UserID, _ findable: Bool) throws
}
