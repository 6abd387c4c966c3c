import ParleyCore
import ParleyProtocol

// `MessagingReader`: users by id, friends, friend requests, blocks and discover.
extension PostgresStoreQuerying {
    /// One statement for any number of ids: they travel as one array parameter, so the SQL
    /// text (and its prepared plan) does not change with the count.
    func users(ids: [UserID]) throws -> [StoredUser] {
        guard !ids.isEmpty else { return [] }
        // Decimal integers only, never caller text: safe to build the array literal by hand.
        let list = "{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}"
        return try query("users(ids:)", "SELECT \(StoredUser.selectColumns) FROM users WHERE id = ANY ($1::bigint[])",
                         list, row: StoredUser.init(row:))
    }

    func friendship(of user: UserID, with other: UserID) throws -> StoredFriendship? {
        try queryFirst("friendship(of:with:)", "SELECT \(StoredFriendship.selectColumns) FROM friendships WHERE user_id = $1 AND friend_id = $2",
                       user.rawValue, other.rawValue, row: StoredFriendship.init(row:))
    }

    /// Ties within a millisecond go by insertion order.
    func friendships(of user: UserID) throws -> [StoredFriendship] {
        try query("friendships(of:)", """
            SELECT \(StoredFriendship.selectColumns) FROM friendships WHERE user_id = $1 ORDER BY since, ordinal
            """, user.rawValue, row: StoredFriendship.init(row:))
    }

    func friendRequest(id: String) throws -> StoredFriendRequest? {
        try queryFirst("friendRequest(id:)", "SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE id = $1",
                       id, row: StoredFriendRequest.init(row:))
    }

    func pendingFriendRequest(from: UserID, to: UserID) throws -> StoredFriendRequest? {
        try queryFirst("pendingFriendRequest(from:to:)", """
            SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE from_id = $1 AND to_id = $2
            """, from.rawValue, to.rawValue, row: StoredFriendRequest.init(row:))
    }

    /// Ties within a millisecond go by insertion order.
    func friendRequests(to user: UserID) throws -> [StoredFriendRequest] {
        try query("friendRequests(to:)", """
            SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE to_id = $1 ORDER BY created_at, ordinal
            """, user.rawValue, row: StoredFriendRequest.init(row:))
    }

    /// Ties within a millisecond go by insertion order.
    func friendRequests(from user: UserID) throws -> [StoredFriendRequest] {
        try query("friendRequests(from:)", """
            SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE from_id = $1 ORDER BY created_at, ordinal
            """, user.rawValue, row: StoredFriendRequest.init(row:))
    }

    func isBlocked(_ target: UserID, by user: UserID) throws -> Bool {
        try queryFirst("isBlocked(_:by:)", "SELECT 1 FROM blocks WHERE user_id = $1 AND target_id = $2",
                       user.rawValue, target.rawValue) { _ in true } ?? false
    }

    /// Ties within a millisecond go by insertion order.
    func blockedUsers(by user: UserID) throws -> [UserID] {
        try query("blockedUsers(by:)", "SELECT target_id FROM blocks WHERE user_id = $1 ORDER BY created_at, ordinal",
                  user.rawValue) { UserID(try $0.int64(0)) }
    }

    /// One pass along the users' primary key from the cursor; each exclusion is a probe of
    /// a primary key or unique index.
    func discoverCandidates(for user: UserID, after cursor: UserID?, limit: Int) throws -> [StoredUser] {
        guard limit > 0 else { return [] }
        return try query("discoverCandidates(for:after:limit:)", """
            SELECT \(StoredUser.selectColumns) FROM users AS u
            WHERE u.id > $2 AND u.id != $1 AND u.deleted_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM friendships WHERE user_id = $1 AND friend_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM blocks WHERE user_id = $1 AND target_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM blocks WHERE user_id = u.id AND target_id = $1)
              AND NOT EXISTS (SELECT 1 FROM swipes WHERE user_id = $1 AND target_id = u.id)
            ORDER BY u.id
            LIMIT $3
            """, user.rawValue, cursor?.rawValue ?? 0, limit, row: StoredUser.init(row:))
    }

    func swipe(by user: UserID, on target: UserID) throws -> StoredSwipe? {
        try queryFirst("swipe(by:on:)", "SELECT \(StoredSwipe.selectColumns) FROM swipes WHERE user_id = $1 AND target_id = $2",
                       user.rawValue, target.rawValue, row: StoredSwipe.init(row:))
    }

    /// The newest is the one saved last (highest ordinal), not the highest `createdAt`.
    func lastSwipe(by user: UserID) throws -> StoredSwipe? {
        try queryFirst("lastSwipe(by:)", """
            SELECT \(StoredSwipe.selectColumns) FROM swipes WHERE user_id = $1 ORDER BY ordinal DESC LIMIT 1
            """, user.rawValue, row: StoredSwipe.init(row:))
    }
}
