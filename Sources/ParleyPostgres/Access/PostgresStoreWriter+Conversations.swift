import ParleyCore
import ParleyProtocol

// `MessagingWriter`: conversations, members and read markers.
extension PostgresStoreWriter {
    /// The two people of a 1:1 conversation are stored smaller id first whichever order they
    /// come in, so that the pair is unique however it is asked for.
    func insertConversation(_ conversation: NewConversation) throws -> StoredConversation {
        var conversation = conversation
        if let a = conversation.userA, let b = conversation.userB, b < a {
            (conversation.userA, conversation.userB) = (b, a)
        }
        let nameKey = conversation.name.map(StoredConversation.key(for:))
        let id = try isolated("insertConversation") {
            try queryFirst("insertConversation", """
                INSERT INTO conversations (kind, name, name_key, avatar, description, owner_id, user_a, user_b,
                                           last_activity_at, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
                RETURNING id
                """, conversation.kind.rawValue, conversation.name, nameKey, conversation.avatar, conversation.description,
                conversation.ownerID?.rawValue, conversation.userA?.rawValue, conversation.userB?.rawValue,
                conversation.createdAt) { try $0.int64(0) }
        }
        guard let id else { throw StoreError.failure("insertConversation: no id came back") }
        return StoredConversation(id: ConversationID(id), kind: conversation.kind,
                                  name: conversation.name, avatar: conversation.avatar, description: conversation.description,
                                  ownerID: conversation.ownerID, userA: conversation.userA, userB: conversation.userB,
                                  lastSeq: 0, lastActivityAt: conversation.createdAt, createdAt: conversation.createdAt)
    }

    /// Kind, people, sequence and times are the store's to keep and are left alone. Updates
    /// nothing when the conversation does not exist.
    func updateConversation(_ conversation: StoredConversation) throws {
        let nameKey = conversation.name.map(StoredConversation.key(for:))
        try isolated("updateConversation") {
            try run("updateConversation", """
                UPDATE conversations SET name = $1, name_key = $2, avatar = $3, description = $4, owner_id = $5
                WHERE id = $6
                """, conversation.name, nameKey, conversation.avatar, conversation.description,
                conversation.ownerID?.rawValue, conversation.id.rawValue)
        }
    }

    func saveMember(_ member: StoredMember) throws {
        try run("saveMember", """
            INSERT INTO members (conversation_id, user_id, role, joined_at, read_seq, history_from) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (conversation_id, user_id) DO UPDATE SET
                role = excluded.role, joined_at = excluded.joined_at, read_seq = excluded.read_seq,
                    history_from = excluded.history_from
            """, member.conversationID.rawValue, member.userID.rawValue, member.role.rawValue, member.joinedAt,
            member.readSeq, member.historyFrom)
    }

    func deleteMember(of conversation: ConversationID, user: UserID) throws {
        try run("deleteMember", "DELETE FROM members WHERE conversation_id = $1 AND user_id = $2",
                conversation.rawValue, user.rawValue)
    }

    /// The marker also stops at the conversation's newest message, so a client cannot mark
    /// as read what does not exist yet. Neither limit moves a marker back. Returns 0, and
    /// stores nothing, for someone who is not a member.
    func markRead(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64 {
        try queryFirst("markRead", """
            UPDATE members
            SET read_seq = greatest(read_seq, least($1::bigint, (SELECT last_seq FROM conversations WHERE id = $2)))
            WHERE conversation_id = $2 AND user_id = $3
            RETURNING read_seq
            """, seq, conversation.rawValue, user.rawValue) { try $0.int64(0) } ?? 0
    }
}
