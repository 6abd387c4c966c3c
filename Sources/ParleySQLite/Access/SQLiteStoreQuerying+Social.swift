import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingReader`: users by id, friends, friend requests, blocks and discover.
extension SQLiteStoreQuerying {
    /// One statement for any number of ids: they travel as one JSON array, so the SQL text
    /// (and its cached plan) does not change with the count.
    func users(ids: [UserID]) throws -> [StoredUser] {
        guard !ids.isEmpty else { return [] }
        // Decimal integers only, never caller text: safe to build the JSON by hand.
        let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        return try StoreError.mapping("users(ids:)") {
            try connection.query("SELECT \(StoredUser.selectColumns) FROM users WHERE id IN (SELECT value FROM json_each(?))",
                                 list, row: StoredUser.init(row:))
        }
    }

    func friendship(of user: UserID, with other: UserID) throws -> StoredFriendship? {
        try StoreError.mapping("friendship(of:with:)") {
            try connection.queryFirst("SELECT \(StoredFriendship.selectColumns) FROM friendships WHERE user_id = ? AND friend_id = ?",
                                      user.rawValue, other.rawValue, row: StoredFriendship.init(row:))
        }
    }

    /// Ties within a millisecond go by insertion order (rowid).
    func friendships(of user: UserID) throws -> [StoredFriendship] {
        try StoreError.mapping("friendships(of:)") {
            try connection.query("""
                SELECT \(StoredFriendship.selectColumns) FROM friendships WHERE user_id = ? ORDER BY since, rowid
                """, user.rawValue, row: StoredFriendship.init(row:))
        }
    }

    func friendRequest(id: String) throws -> StoredFriendRequest? {
        try StoreError.mapping("friendRequest(id:)") {
            try connection.queryFirst("SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE id = ?",
                                      id, row: StoredFriendRequest.init(row:))
        }
    }

    func pendingFriendRequest(from: UserID, to: UserID) throws -> StoredFriendRequest? {
        try StoreError.mapping("pendingFriendRequest(from:to:)") {
            try connection.queryFirst("""
                SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE from_id = ? AND to_id = ?
                """, from.rawValue, to.rawValue, row: StoredFriendRequest.init(row:))
        }
    }

    /// Ties within a millisecond go by insertion order (rowid).
    func friendRequests(to user: UserID) throws -> [StoredFriendRequest] {
        try StoreError.mapping("friendRequests(to:)") {
            try connection.query("""
                SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE to_id = ? ORDER BY created_at, rowid
                """, user.rawValue, row: StoredFriendRequest.init(row:))
        }
    }

    /// Ties within a millisecond go by insertion order (rowid).
    func friendRequests(from user: UserID) throws -> [StoredFriendRequest] {
        try StoreError.mapping("friendRequests(from:)") {
            try connection.query("""
                SELECT \(StoredFriendRequest.selectColumns) FROM friend_requests WHERE from_id = ? ORDER BY created_at, rowid
                """, user.rawValue, row: StoredFriendRequest.init(row:))
        }
    }

    func isBlocked(_ target: UserID, by user: UserID) throws -> Bool {
        try StoreError.mapping("isBlocked(_:by:)") {
            try connection.queryFirst("SELECT 1 FROM blocks WHERE user_id = ? AND target_id = ?",
                                      user.rawValue, target.rawValue) { _ in true } ?? false
        }
    }

    /// Ties within a millisecond go by insertion order (rowid).
    func blockedUsers(by user: UserID) throws -> [UserID] {
        try StoreError.mapping("blockedUsers(by:)") {
            try connection.query("SELECT target_id FROM blocks WHERE user_id = ? ORDER BY created_at, rowid",
                                 user.rawValue) { UserID(try $0.int64(0)) }
        }
    }

    /// One pass along the users' primary key from the cursor; each exclusion is a probe of
    /// a primary key or unique index, so the cost grows with the people skipped, not with
    /// the size of the tables.
    func discoverCandidates(for user: UserID, after cursor: UserID?, limit: Int) throws -> [StoredUser] {
        guard limit > 0 else { return [] }
        return try StoreError.mapping("discoverCandidates(for:after:limit:)") {
            try connection.query("""
                SELECT \(StoredUser.selectColumns) FROM users AS u
                WHERE u.id > ?2 AND u.id != ?1 AND u.deleted_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM friendships WHERE user_id = ?1 AND friend_id = u.id)
                  AND NOT EXISTS (SELECT 1 FROM blocks WHERE user_id = ?1 AND target_id = u.id)
                  AND NOT EXISTS (SELECT 1 FROM blocks WHERE user_id = u.id AND target_id = ?1)
                  AND NOT EXISTS (SELECT 1 FROM swipes WHERE user_id = ?1 AND target_id = u.id)
                ORDER BY u.id
                LIMIT ?3
                """, user.rawValue, cursor?.rawValue ?? 0, limit, row: StoredUser.init(row:))
        }
    }

    func swipe(by user: UserID, on target: UserID) throws -> StoredSwipe? {
        try StoreError.mapping("swipe(by:on:)") {
            try connection.queryFirst("SELECT \(StoredSwipe.selectColumns) FROM swipes WHERE user_id = ? AND target_id = ?",
                                      user.rawValue, target.rawValue, row: StoredSwipe.init(row:))
        }
    }

    /// The newest is the one saved last (highest ordinal), not the highest `createdAt`:
    /// two swipes can share a millisecond, and undo must take back the one made last.
    func lastSwipe(by user: UserID) throws -> StoredSwipe? {
        try StoreError.mapping("lastSwipe(by:)") {
            try connection.queryFirst("""
                SELECT \(StoredSwipe.selectColumns) FROM swipes WHERE user_id = ? ORDER BY ordinal DESC LIMIT 1
                """, user.rawValue, row: StoredSwipe.init(row:))
        }
    }
}
