import ParleyCore
import ParleyProtocol

extension StoredMember: JoinableRecord {
    /// The `members` columns that `init(row:at:)` reads, in its order.
    package static let columns = ["conversation_id", "user_id", "role", "joined_at", "read_seq", "history_from"]
    /// `columns` for a `SELECT` from `members` alone.
    package static let selectColumns = columns.joined(separator: ", ")

    /// A membership from `columns`, starting at column `offset` of `row`.
    package init<Row: StoreRow>(row: Row, at offset: Int = 0) throws {
        let conversationID = try row.int64(offset)
        let roleName = try row.string(offset + 2)
        guard let role = Role(rawValue: roleName) else {
            throw StoreError.failure("a member of conversation \(conversationID) has an unknown role")
        }
        self.init(conversationID: ConversationID(conversationID),
                  userID: UserID(try row.int64(offset + 1)),
                  role: role,
                  joinedAt: try row.int64(offset + 3),
                  readSeq: try row.int64(offset + 4),
                  historyFrom: try row.int64(offset + 5))
    }
}
