import ParleyCore
import ParleyProtocol
import ParleySQL

// Unread counts: what in a conversation's sequence after a read marker counts for a member.
extension SQLiteStoreQuerying {
    /// The count of unread entries of conversation `conversation` after `marker` for `user`,
    /// as a scalar subquery over SQL expressions: messages from others that were not
    /// recalled, and notices but those of message actions (edits, recalls, reactions, pins,
    /// listened marks, which carry the `messageId` they act on). Read on the unique index
    /// `(conversation_id, seq)` from the marker on, so a conversation read to its end costs
    /// one probe.
    static func unreadCountSQL(conversation: String, marker: String, user: String) -> String {
        """
        (SELECT count(*) FROM messages AS u
         WHERE u.conversation_id = \(conversation) AND u.seq > \(marker)
           AND (u.sender_id IS NULL OR u.sender_id <> \(user))
           AND CASE WHEN u.kind = 'system' THEN json_extract(u.body, '$.system.messageId') IS NULL
                    ELSE u.body IS NULL OR json_extract(u.body, '$.recalled') IS NULL END)
        """
    }

    func unreadCount(in conversation: ConversationID, for user: UserID, after seq: Int64) throws -> Int64 {
        try StoreError.mapping("unreadCount(in:for:after:)") {
            try connection.queryFirst("SELECT " + Self.unreadCountSQL(conversation: "?1", marker: "?2", user: "?3"),
                                      conversation.rawValue, seq, user.rawValue) { try $0.int64(0) } ?? 0
        }
    }
}
