extension PostgresStoreSchema {
    /// Version 9: what message actions keep beside the messages (SQLite's version 10, which
    /// says what each table is for).
    static let messageActions = """
        CREATE TABLE hidden_messages (
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            message_id      BIGINT NOT NULL,
            hidden_at       BIGINT NOT NULL,
            PRIMARY KEY (user_id, conversation_id, message_id)
        );
        CREATE TABLE pinned_messages (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            message_id      BIGINT NOT NULL,
            pinned_by       BIGINT NOT NULL,
            pinned_at       BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, message_id)
        );
        CREATE TABLE message_mentions (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             BIGINT NOT NULL,
            sender_id       BIGINT NOT NULL,
            user_id         BIGINT
        );
        CREATE INDEX message_mentions_by_position ON message_mentions (conversation_id, seq);
        """
}
