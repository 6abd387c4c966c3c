import ParleyCore
import ParleyProtocol

// `MessagingReader`: conversations, their members, and a user's inbox.
extension PostgresStoreQuerying {
    func conversation(id: ConversationID) throws -> StoredConversation? {
        try queryFirst("conversation(id:)", "SELECT \(StoredConversation.selectColumns) FROM conversations WHERE id = $1",
                       id.rawValue, row: { try StoredConversation(row: $0) })
    }

    func conversation(kind: ConversationKind, name: String) throws -> StoredConversation? {
        try queryFirst("conversation(kind:name:)", """
            SELECT \(StoredConversation.selectColumns) FROM conversations WHERE kind = $1 AND name_key = $2
            """, kind.rawValue, StoredConversation.key(for: name), row: { try StoredConversation(row: $0) })
    }

    func directConversation(between a: UserID, and b: UserID) throws -> StoredConversation? {
        // Stored smaller id first.
        let (first, second) = a < b ? (a, b) : (b, a)
        return try queryFirst("directConversation(between:and:)", """
            SELECT \(StoredConversation.selectColumns) FROM conversations WHERE user_a = $1 AND user_b = $2
            """, first.rawValue, second.rawValue, row: { try StoredConversation(row: $0) })
    }

    func member(of conversation: ConversationID, user: UserID) throws -> StoredMember? {
        try queryFirst("member(of:user:)", """
            SELECT \(StoredMember.selectColumns) FROM members WHERE conversation_id = $1 AND user_id = $2
            """, conversation.rawValue, user.rawValue, row: { try StoredMember(row: $0) })
    }

    func members(of conversation: ConversationID, after cursor: UserID?, limit: Int) throws -> [StoredMember] {
        guard limit > 0 else { return [] }
        return try query("members(of:after:limit:)", """
            SELECT \(StoredMember.selectColumns) FROM members
            WHERE conversation_id = $1 AND user_id > $2
            ORDER BY user_id
            LIMIT $3
            """, conversation.rawValue, cursor?.rawValue ?? 0, limit, row: { try StoredMember(row: $0) })
    }

    /// In ascending id, the primary key's order: one index range, one round trip.
    func memberIDs(of conversation: ConversationID) throws -> [UserID] {
        try query("memberIDs(of:)", "SELECT user_id FROM members WHERE conversation_id = $1 ORDER BY user_id",
                  conversation.rawValue) { UserID(try $0.int64(0)) }
    }

    func memberCount(of conversation: ConversationID) throws -> Int {
        try queryFirst("memberCount(of:)", "SELECT count(*) FROM members WHERE conversation_id = $1",
                       conversation.rawValue) { try $0.int(0) } ?? 0
    }

    /// One query: the user's memberships, their conversations, each conversation's newest
    /// message found through `(conversation_id, seq) = (id, last_seq)`, a probe of the
    /// unique index, and its unread count (`unreadCountSQL`). Ties in activity go to the
    /// newer conversation, so the order is total.
    func inbox(of user: UserID) throws -> [InboxEntry] {
        let memberOffset = StoredConversation.columns.count
        let messageOffset = memberOffset + StoredMember.columns.count
        let unreadOffset = messageOffset + Message.columns.count
        return try query("inbox(of:)", """
            SELECT \(StoredConversation.selectColumns(of: "c")), \(StoredMember.selectColumns(of: "m")),
                   \(Message.selectColumns(of: "msg")),
                   \(Self.unreadCountSQL(conversation: "c.id", marker: "m.read_seq", user: "$1"))
            FROM members AS m
            JOIN conversations AS c ON c.id = m.conversation_id
            LEFT JOIN messages AS msg ON msg.conversation_id = c.id AND msg.seq = c.last_seq
            WHERE m.user_id = $1 AND c.kind IN ('user', 'group')
            ORDER BY c.last_activity_at DESC, c.id DESC
            """, user.rawValue) { row in
            InboxEntry(conversation: try StoredConversation(row: row),
                       member: try StoredMember(row: row, at: memberOffset),
                       lastMessage: row.isNull(messageOffset) ? nil : try Message(row: row, at: messageOffset),
                       unread: try row.int64(unreadOffset))
        }
    }

    /// One aggregate over the user's memberships (`members_by_user`) joined to their
    /// conversations by primary key, counting (`unreadCountSQL`) only where the marker is
    /// behind; `sum` of bigint is numeric, hence the cast back.
    func totalUnread(for user: UserID) throws -> Int64 {
        try queryFirst("totalUnread(for:)", """
            SELECT coalesce(sum(\(Self.unreadCountSQL(conversation: "c.id", marker: "m.read_seq", user: "$1"))), 0)::bigint
            FROM members AS m
            JOIN conversations AS c ON c.id = m.conversation_id
            WHERE m.user_id = $1 AND c.kind IN ('user', 'group') AND c.last_seq > m.read_seq
            """, user.rawValue) { try $0.int64(0) } ?? 0
    }
}
