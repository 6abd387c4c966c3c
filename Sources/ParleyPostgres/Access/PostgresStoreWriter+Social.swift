import ParleyCore
import ParleyProtocol

// `MessagingWriter`: friend requests, friendships, blocks and swipes.
extension PostgresStoreWriter {
    func insertFriendRequest(_ request: StoredFriendRequest) throws {
        try isolated("insertFriendRequest") {
            try run("insertFriendRequest", """
                INSERT INTO friend_requests (id, from_id, to_id, greeting, created_at) VALUES ($1, $2, $3, $4, $5)
                """, request.id, request.fromID.rawValue, request.toID.rawValue, request.greeting, request.createdAt)
        }
    }

    func deleteFriendRequest(id: String) throws {
        try run("deleteFriendRequest", "DELETE FROM friend_requests WHERE id = $1", id)
    }

    func deleteFriendRequests(between a: UserID, and b: UserID) throws {
        try run("deleteFriendRequests", """
            DELETE FROM friend_requests WHERE (from_id = $1 AND to_id = $2) OR (from_id = $2 AND to_id = $1)
            """, a.rawValue, b.rawValue)
    }

    /// Both sides in one statement. Storing a friendship that exists replaces its
    /// conversation and time, so that what is stored afterwards is what was asked for.
    func insertFriendship(_ a: UserID, _ b: UserID, conversation: ConversationID, at time: Int64) throws {
        try run("insertFriendship", """
            INSERT INTO friendships (user_id, friend_id, conversation_id, since) VALUES ($1, $2, $3, $4), ($2, $1, $3, $4)
            ON CONFLICT (user_id, friend_id) DO UPDATE SET
                conversation_id = excluded.conversation_id, since = excluded.since
            """, a.rawValue, b.rawValue, conversation.rawValue, time)
    }

    func deleteFriendship(_ a: UserID, _ b: UserID) throws {
        try run("deleteFriendship", """
            DELETE FROM friendships WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)
            """, a.rawValue, b.rawValue)
    }

    /// Blocking someone already blocked keeps the first block and its time, so the list of
    /// blocked people keeps its order.
    func insertBlock(by user: UserID, target: UserID, at time: Int64) throws {
        try run("insertBlock", """
            INSERT INTO blocks (user_id, target_id, created_at) VALUES ($1, $2, $3)
            ON CONFLICT (user_id, target_id) DO NOTHING
            """, user.rawValue, target.rawValue, time)
    }

    func deleteBlock(by user: UserID, target: UserID) throws {
        try run("deleteBlock", "DELETE FROM blocks WHERE user_id = $1 AND target_id = $2", user.rawValue, target.rawValue)
    }

    /// A changed swipe takes a new ordinal, so it becomes the newest (undo takes it back
    /// first), as SQLite's `REPLACE` does.
    func saveSwipe(_ swipe: StoredSwipe) throws {
        try run("saveSwipe", """
            INSERT INTO swipes (user_id, target_id, liked, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id, target_id) DO UPDATE SET
                liked = excluded.liked, created_at = excluded.created_at, ordinal = nextval('swipes_ordinal')
            """, swipe.userID.rawValue, swipe.targetID.rawValue, swipe.liked, swipe.createdAt)
    }

    func deleteSwipe(by user: UserID, on target: UserID) throws {
        try run("deleteSwipe", "DELETE FROM swipes WHERE user_id = $1 AND target_id = $2", user.rawValue, target.rawValue)
    }
}
