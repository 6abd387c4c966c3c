import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingReader`: messages. Every query here is a range or probe of one of the two
// unique indexes of `messages`: `(conversation_id, seq)` and `(sender_id, client_id)`.
extension SQLiteStoreQuerying {
    func message(in conversation: ConversationID, seq: Int64) throws -> Message? {
        try StoreError.mapping("message(in:seq:)") {
            try connection.queryFirst("SELECT \(Message.selectColumns) FROM messages WHERE conversation_id = ? AND seq = ?",
                                      conversation.rawValue, seq, row: { try Message(row: $0) })
        }
    }

    /// Reads newest first (so `LIMIT` keeps the ones nearest `seq`) and hands them back
    /// oldest first.
    func messages(in conversation: ConversationID, before seq: Int64?, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        let newestFirst = try StoreError.mapping("messages(in:before:limit:)") {
            try connection.query("""
                SELECT \(Message.selectColumns) FROM messages
                WHERE conversation_id = ? AND seq < ?
                ORDER BY seq DESC
                LIMIT ?
                """, conversation.rawValue, seq ?? Int64.max, limit, row: { try Message(row: $0) })
        }
        return newestFirst.reversed()
    }

    func messages(in conversation: ConversationID, after seq: Int64, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        return try StoreError.mapping("messages(in:after:limit:)") {
            try connection.query("""
                SELECT \(Message.selectColumns) FROM messages
                WHERE conversation_id = ? AND seq > ?
                ORDER BY seq
                LIMIT ?
                """, conversation.rawValue, seq, limit, row: { try Message(row: $0) })
        }
    }

    func message(sender: UserID, clientID: String) throws -> Message? {
        try StoreError.mapping("message(sender:clientID:)") {
            try connection.queryFirst("SELECT \(Message.selectColumns) FROM messages WHERE sender_id = ? AND client_id = ?",
                                      sender.rawValue, clientID, row: { try Message(row: $0) })
        }
    }
}

// The archive: ranges of the partial index `messages_archive (conversation_id, created_at,
// id) WHERE kind <> 'system'` (schema version 5), in either direction.
extension SQLiteStoreQuerying {
    func message(id: Int64) throws -> Message? {
        try StoreError.mapping("message(id:)") {
            try connection.queryFirst("SELECT \(Message.selectColumns) FROM messages WHERE id = ?", id, row: { try Message(row: $0) })
        }
    }

    func archivedMessages(in conversation: ConversationID, _ range: ArchiveRange, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        let bounds = range.bounds
        let messages = try StoreError.mapping("archivedMessages(in:_:limit:)") {
            try connection.query(range.newest ? SQLiteArchiveSQL.newest : SQLiteArchiveSQL.oldest,
                                 conversation.rawValue, bounds.start, bounds.end, bounds.after.createdAt, bounds.after.id,
                                 bounds.before.createdAt, bounds.before.id, limit, row: { try Message(row: $0) })
        }
        return range.newest ? messages.reversed() : messages
    }

    func archivedMessageCount(in conversation: ConversationID, start: Int64?, end: Int64?) throws -> Int {
        try StoreError.mapping("archivedMessageCount(in:start:end:)") {
            try connection.queryFirst(SQLiteArchiveSQL.count, conversation.rawValue, start ?? .min, end ?? .max,
                                      row: { try $0.int64(0) }).map(Int.init) ?? 0
        }
    }

    func conversationIDs(of user: UserID, kind: ConversationKind) throws -> [ConversationID] {
        try StoreError.mapping("conversationIDs(of:kind:)") {
            try connection.query(SQLiteArchiveSQL.conversations, user.rawValue, kind.rawValue,
                                 row: { ConversationID(rawValue: try $0.int64(0)) })
        }
    }
}

/// The archive's statements, named so the tests can check their plans (EXPLAIN QUERY PLAN).
enum SQLiteArchiveSQL {
    private static let range = """
        WHERE conversation_id = ?1 AND kind <> 'system' AND created_at BETWEEN ?2 AND ?3
          AND (created_at, id) > (?4, ?5) AND (created_at, id) < (?6, ?7)
        """
    static let oldest = "SELECT \(Message.selectColumns) FROM messages \(range) ORDER BY created_at, id LIMIT ?8"
    static let newest = "SELECT \(Message.selectColumns) FROM messages \(range) ORDER BY created_at DESC, id DESC LIMIT ?8"
    static let count = "SELECT count(*) FROM messages WHERE conversation_id = ?1 AND kind <> 'system' AND created_at BETWEEN ?2 AND ?3"
    static let conversations = """
        SELECT c.id FROM members AS m JOIN conversations AS c ON c.id = m.conversation_id
        WHERE m.user_id = ?1 AND c.kind = ?2 ORDER BY c.id
        """
}
