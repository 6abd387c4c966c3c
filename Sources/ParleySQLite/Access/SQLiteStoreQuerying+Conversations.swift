import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingReader`: conversations, their members, and a user's inbox.
extension SQLiteStoreQuerying {
    func conversation(id: ConversationID) throws -> StoredConversation? {
        try StoreError.mapping("conversation(id:)") {
            try connection.queryFirst("SELECT \(StoredConversation.selectColumns) FROM conversations WHERE id = ?",
                                      id.rawValue, row: { try StoredConversation(row: $0) })
        }
    }

    func conversation(kind: ConversationKind, name: String) throws -> StoredConversation? {
        try StoreError.mapping("conversation(kind:name:)") {
            try connection.queryFirst("""
                SELECT \(StoredConversation.selectColumns) FROM conversations WHERE kind = ? AND name_key = ?
                """, kind.rawValue, StoredConversation.key(for: name), row: { try StoredConversation(row: $0) })
        }
    }

    func directConversation(between a: UserID, and b: UserID) throws -> StoredConversation? {
        // Stored smaller id first.
        let (first, second) = a < b ? (a, b) : (b, a)
        return try StoreError.mapping("directConversation(between:and:)") {
            try connection.queryFirst("""
                SELECT \(StoredConversation.selectColumns) FROM conversations WHERE user_a = ? AND user_b = ?
                """, first.rawValue, second.rawValue, row: { try StoredConversation(row: $0) })
        }
    }

    func member(of conversation: ConversationID, user: UserID) throws -> StoredMember? {
        try StoreError.mapping("member(of:user:)") {
            try connection.queryFirst("SELECT \(StoredMember.selectColumns) FROM members WHERE conversation_id = ? AND user_id = ?",
                                      conversation.rawValue, user.rawValue, row: { try StoredMember(row: $0) })
        }
    }

    func members(of conversation: ConversationID, after cursor: UserID?, limit: Int) throws -> [StoredMember] {
        guard limit > 0 else { return [] }
        return try StoreError.mapping("members(of:after:limit:)") {
            try connection.query("""
                SELECT \(StoredMember.selectColumns) FROM members
                WHERE conversation_id = ? AND user_id > ?
                ORDER BY user_id
                LIMIT ?
                """, conversation.rawValue, cursor?.rawValue ?? 0, limit, row: { try StoredMember(row: $0) })
        }
    }

    /// In ascending id, which is the primary key's order and costs nothing.
    func memberIDs(of conversation: ConversationID) throws -> [UserID] {
        try StoreError.mapping("memberIDs(of:)") {
            try connection.query("SELECT user_id FROM members WHERE conversation_id = ? ORDER BY user_id",
                                 conversation.rawValue) { UserID(try $0.int64(0)) }
        }
    }

    func memberCount(of conversation: ConversationID) throws -> Int {
        try StoreError.mapping("memberCount(of:)") {
            try connection.queryFirst("SELECT count(*) FROM members WHERE conversation_id = ?",
                                      conversation.rawValue) { try $0.int(0) } ?? 0
        }
    }

    /// One query: the user's memberships, their conversations, each conversation's
    /// newest message found through `(conversation_id, seq) = (id, last_seq)`, a probe of
    /// the unique index rather than a search for the maximum, and its unread count
    /// (`unreadCountSQL`). Ties in activity go to the newer conversation, so the order is
    /// total and stable across calls.
    func inbox(of user: UserID) throws -> [InboxEntry] {
        let memberOffset = StoredConversation.columns.count
        let messageOffset = memberOffset + StoredMember.columns.count
        let unreadOffset = messageOffset + Message.columns.count
        return try StoreError.mapping("inbox(of:)") {
            try connection.query("""
                SELECT \(StoredConversation.selectColumns(of: "c")), \(StoredMember.selectColumns(of: "m")),
                       \(Message.selectColumns(of: "msg")),
                       \(Self.unreadCountSQL(conversation: "c.id", marker: "m.read_seq", user: "?1"))
                FROM members AS m
                JOIN conversations AS c ON c.id = m.conversation_id
                LEFT JOIN messages AS msg ON msg.conversation_id = c.id AND msg.seq = c.last_seq
                WHERE m.user_id = ?1 AND c.kind IN ('user', 'group')
                ORDER BY c.last_activity_at DESC, c.id DESC
                """, user.rawValue) { row in
                InboxEntry(conversation: try StoredConversation(row: row),
                           member: try StoredMember(row: row, at: memberOffset),
                           lastMessage: row.isNull(messageOffset) ? nil : try Message(row: row, at: messageOffset),
                           unread: try row.int64(unreadOffset))
            }
        }
    }

    /// One aggregate over the user's memberships (`members_by_user`) joined to their
    /// conversations by primary key, counting (`unreadCountSQL`) only where the marker is
    /// behind: no rows come back to Swift but the sum.
    func totalUnread(for user: UserID) throws -> Int64 {
        try StoreError.mapping("totalUnread(for:)") {
            try connection.queryFirst("""
                SELECT coalesce(sum(\(Self.unreadCountSQL(conversation: "c.id", marker: "m.read_seq", user: "?1"))), 0)
                FROM members AS m
                JOIN conversations AS c ON c.id = m.conversation_id
                WHERE m.user_id = ?1 AND c.kind IN ('user', 'group') AND c.last_seq > m.read_seq
                """, user.rawValue) { try $0.int64(0) } ?? 0
        }
    }
}
