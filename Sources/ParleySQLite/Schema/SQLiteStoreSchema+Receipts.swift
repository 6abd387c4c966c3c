extension SQLiteStoreSchema {
    /// Version 14: receipts (docs/protocol.md, "Receipts and typing").
    ///
    /// - `delivery_markers`: how far each member's connections have received a conversation,
    ///   beside `members.read_seq`; a table of its own so that the members' rows and queries
    ///   stay as they are. Rows come with the first delivery.
    /// - `privacy_settings`: a user's choices; no row means the defaults (all shared).
    static let receipts = """
        CREATE TABLE delivery_markers (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            delivered_seq   INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE privacy_settings (
            user_id       INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            read_receipts INTEGER NOT NULL,
            typing        INTEGER NOT NULL,
            last_seen     TEXT NOT NULL CHECK (last_seen IN ('everyone', 'friends', 'nobody'))
        ) STRICT;
        """
}
