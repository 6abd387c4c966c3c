import ParleyCore
import ParleyProtocol

extension StoredConversation: JoinableRecord {
    /// The `conversations` columns that `init(row:at:)` reads, in its order.
    package static let columns = ["id", "kind", "name", "avatar", "description", "owner_id", "user_a", "user_b",
                          "last_seq", "last_activity_at", "created_at"]
    /// `columns` for a `SELECT` from `conversations` alone.
    package static let selectColumns = columns.joined(separator: ", ")

    /// A conversation from `columns`, starting at column `offset` of `row`.
    package init<Row: StoreRow>(row: Row, at offset: Int = 0) throws {
        let id = try row.int64(offset)
        let kindName = try row.string(offset + 1)
        guard let kind = ConversationKind(rawValue: kindName) else {
            throw StoreError.failure("conversation \(id) has an unknown kind")
        }
        self.init(id: ConversationID(id),
                  kind: kind,
                  name: try row.optionalString(offset + 2),
                  avatar: try row.optionalString(offset + 3),
                  description: try row.optionalString(offset + 4),
                  ownerID: try row.optionalInt64(offset + 5).map(UserID.init(rawValue:)),
                  userA: try row.optionalInt64(offset + 6).map(UserID.init(rawValue:)),
                  userB: try row.optionalInt64(offset + 7).map(UserID.init(rawValue:)),
                  lastSeq: try row.int64(offset + 8),
                  lastActivityAt: try row.int64(offset + 9),
                  createdAt: try row.int64(offset + 10))
    }

    /// The key that makes group and room names unique without regard to case (per kind).
    package static func key(for name: String) -> String {
        name.lowercased()
    }
}
