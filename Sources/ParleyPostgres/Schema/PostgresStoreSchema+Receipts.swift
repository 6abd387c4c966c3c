extension PostgresStoreSchema {
    /// Version 13: receipts (SQLite's version 14, which says what each table is for).
    static let receipts = """
        CREATE TABLE delivery_markers (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            delivered_seq   BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        );
        CREATE TABLE privacy_settings (
            user_id       BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            read_receipts BOOLEAN NOT NULL,
            typing        BOOLEAN NOT NULL,
            last_seen     TEXT NOT NULL CHECK (last_seen IN ('everyone', 'friends', 'nobody'))
        );
        """
}
