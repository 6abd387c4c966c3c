public import ParleyProtocol

/// When each user was last online (part of `StoreReader`): written when their last
/// connection closes, to the minute; who may see it is the user's `lastSeen` privacy choice
/// (`LastSeenService`).
public protocol LastSeenReader {
    /// The last-seen times of those of `users` that were ever seen going offline.
    func lastSeen(of users: [UserID]) throws -> [UserID: Int64]
}

/// Last-seen changes (part of `StoreWriter`).
public protocol LastSeenWriter: LastSeenReader {
    /// Records `user` as last seen at `time`; never moves it back (two servers of a cluster
    /// may write out of order). Nothing for a deleted account (`Store.eraseUser` removes the
    /// row, and the account's connections close after it).
    func saveLastSeen(of user: UserID, at time: Int64) throws
}
