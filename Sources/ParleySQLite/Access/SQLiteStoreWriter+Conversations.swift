import ParleyCore
import ParleyProtocol
import ParleySQL

// `MessagingWriter`: conversations, members and read markers.
extension SQLiteStoreWriter {
    /// The two people of a 1:1 conversation are stored smaller id first whichever order they
    /// come in, so that the pair is unique however it is asked for.
    func insertConversation(_ conversation: NewConversation) throws -> StoredConversation {
        var conversation = conversation
        if let a = conversation.userA, let b = conversation.userB, b < a {
            (conversation.userA, conversation.userB) = (b, a)
        }
        let nameKey = conversation.name.map(StoredConversation.key(for:))
        try refusingDuplicates("insertConversation", [
            nameRule(kind: conversation.kind, key: nameKey, excluding: nil),
            ("pair", { [conversation] in
                guard let a = conversation.userA, let b = conversation.userB else { return false }
                return try exists("SELECT 1 FROM conversations WHERE user_a = ? AND user_b = ?", a.rawValue, b.rawValue)
            }),
        ]) {
            try connection.run("""
                INSERT INTO conversations (kind, name, name_key, avatar, description, owner_id, user_a, user_b,
                                           last_activity_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, conversation.kind.rawValue, conversation.name, nameKey, conversation.avatar, conversation.description,
                conversation.ownerID?.rawValue, conversation.userA?.rawValue, conversation.userB?.rawValue,
                conversation.createdAt, conversation.createdAt)
        }
        return StoredConversation(id: ConversationID(connection.lastInsertRowID), kind: conversation.kind,
                                  name: conversation.name, avatar: conversation.avatar, description: conversation.description,
                                  ownerID: conversation.ownerID, userA: conversation.userA, userB: conversation.userB,
                                  lastSeq: 0, lastActivityAt: conversation.createdAt, createdAt: conversation.createdAt)
    }

    /// Kind, people, sequence and times are the store's to keep and are left alone. Updates
    /// nothing when the conversation does not exist.
    func updateConversation(_ conversation: StoredConversation) throws {
        let nameKey = conversation.name.map(StoredConversation.key(for:))
        try refusingDuplicates("updateConversation", [nameRule(kind: conversation.kind, key: nameKey, excluding: conversation.id)]) {
            try connection.run("""
                UPDATE conversations SET name = ?, name_key = ?, avatar = ?, description = ?, owner_id = ?
                WHERE id = ?
                """, conversation.name, nameKey, conversation.avatar, conversation.description,
                conversation.ownerID?.rawValue, conversation.id.rawValue)
        }
    }

    func saveMember(_ member: StoredMember) throws {
        try StoreError.mapping("saveMember") {
            try connection.run("""
                INSERT INTO members (conversation_id, user_id, role, joined_at, read_seq, history_from) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (conversation_id, user_id) DO UPDATE SET
                    role = excluded.role, joined_at = excluded.joined_at, read_seq = excluded.read_seq,
                    history_from = excluded.history_from
                """, member.conversationID.rawValue, member.userID.rawValue, member.role.rawValue, member.joinedAt,
                member.readSeq, member.historyFrom)
        }
    }

    func deleteMember(of conversation: ConversationID, user: UserID) throws {
        try StoreError.mapping("deleteMember") {
            try connection.run("DELETE FROM members WHERE conversation_id = ? AND user_id = ?",
                               conversation.rawValue, user.rawValue)
        }
    }

    /// The marker also stops at the conversation's newest message, so a client cannot mark
    /// as read what does not exist yet (and later messages would otherwise arrive "read").
    /// Neither limit moves a marker back. Returns 0, and stores nothing, for someone who is
    /// not a member.
    func markRead(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64 {
        // UPDATE then SELECT rather than `RETURNING` (see `appendMessage`).
        try StoreError.mapping("markRead") {
            try tolerated {
                try connection.run("""
                    UPDATE members
                    SET read_seq = max(read_seq, min(?1, (SELECT last_seq FROM conversations WHERE id = ?2)))
                    WHERE conversation_id = ?2 AND user_id = ?3
                    """, seq, conversation.rawValue, user.rawValue)
            }
            return try connection.queryFirst("SELECT read_seq FROM members WHERE conversation_id = ? AND user_id = ?",
                                             conversation.rawValue, user.rawValue) { try $0.int64(0) } ?? 0
        }
    }

    /// The uniqueness of a group's or room's name within its kind, any case; `excluding` is
    /// the conversation being renamed, which may keep its own name.
    private func nameRule(kind: ConversationKind, key: String?, excluding id: ConversationID?) -> UniquenessRule {
        ("name", {
            guard let key else { return false }
            return try exists("SELECT 1 FROM conversations WHERE kind = ? AND name_key = ? AND id != ?",
                              kind.rawValue, key, id?.rawValue ?? 0)
        })
    }
}
