import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingWriter`: friend requests, friendships, blocks and swipes.
extension SQLiteStoreWriter {
    func insertFriendRequest(_ request: StoredFriendRequest) throws {
        let pending: UniquenessRule = ("friend_request", {
            try exists("SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?",
                       request.fromID.rawValue, request.toID.rawValue)
        })
        try refusingDuplicates("insertFriendRequest", [pending]) {
            try connection.run("""
                INSERT INTO friend_requests (id, from_id, to_id, greeting, created_at) VALUES (?, ?, ?, ?, ?)
                """, request.id, request.fromID.rawValue, request.toID.rawValue, request.greeting, request.createdAt)
        }
    }

    func deleteFriendRequest(id: String) throws {
        try StoreError.mapping("deleteFriendRequest") {
            try connection.run("DELETE FROM friend_requests WHERE id = ?", id)
        }
    }

    func deleteFriendRequests(between a: UserID, and b: UserID) throws {
        try StoreError.mapping("deleteFriendRequests") {
            try connection.run("""
                DELETE FROM friend_requests WHERE (from_id = ?1 AND to_id = ?2) OR (from_id = ?2 AND to_id = ?1)
                """, a.rawValue, b.rawValue)
        }
    }

    /// Storing a friendship that exists replaces its conversation and time, so that what is
    /// stored afterwards is what was asked for.
    func insertFriendship(_ a: UserID, _ b: UserID, conversation: ConversationID, at time: Int64) throws {
        try StoreError.mapping("insertFriendship") {
            for (user, friend) in [(a, b), (b, a)] {
                try connection.run("""
                    INSERT INTO friendships (user_id, friend_id, conversation_id, since) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, friend_id) DO UPDATE SET
                        conversation_id = excluded.conversation_id, since = excluded.since
                    """, user.rawValue, friend.rawValue, conversation.rawValue, time)
            }
        }
    }

    func deleteFriendship(_ a: UserID, _ b: UserID) throws {
        try StoreError.mapping("deleteFriendship") {
            try connection.run("""
                DELETE FROM friendships WHERE (user_id = ?1 AND friend_id = ?2) OR (user_id = ?2 AND friend_id = ?1)
                """, a.rawValue, b.rawValue)
        }
    }

    /// Blocking someone already blocked keeps the first block and its time, so the list of
    /// blocked people keeps its order.
    func insertBlock(by user: UserID, target: UserID, at time: Int64) throws {
        try StoreError.mapping("insertBlock") {
            try connection.run("""
                INSERT INTO blocks (user_id, target_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id, target_id) DO NOTHING
                """, user.rawValue, target.rawValue, time)
        }
    }

    func deleteBlock(by user: UserID, target: UserID) throws {
        try StoreError.mapping("deleteBlock") {
            try connection.run("DELETE FROM blocks WHERE user_id = ? AND target_id = ?", user.rawValue, target.rawValue)
        }
    }

    /// `REPLACE` deletes the old row and inserts a new one, so a changed swipe gets a new,
    /// highest ordinal and becomes the newest (an upsert would keep the old ordinal).
    func saveSwipe(_ swipe: StoredSwipe) throws {
        try StoreError.mapping("saveSwipe") {
            try connection.run("""
                INSERT OR REPLACE INTO swipes (user_id, target_id, liked, created_at) VALUES (?, ?, ?, ?)
                """, swipe.userID.rawValue, swipe.targetID.rawValue, swipe.liked, swipe.createdAt)
        }
    }

    func deleteSwipe(by user: UserID, on target: UserID) throws {
        try StoreError.mapping("deleteSwipe") {
            try connection.run("DELETE FROM swipes WHERE user_id = ? AND target_id = ?", user.rawValue, target.rawValue)
        }
    }
}
