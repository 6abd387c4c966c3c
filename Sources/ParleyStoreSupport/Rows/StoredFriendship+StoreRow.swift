import ParleyCore
import ParleyProtocol

extension StoredFriendship {
    /// The `friendships` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "user_id, friend_id, conversation_id, since"

    /// One side of a friendship from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        self.init(userID: UserID(try row.int64(0)),
                  friendID: UserID(try row.int64(1)),
                  conversationID: ConversationID(try row.int64(2)),
                  since: try row.int64(3))
    }
}
