extension SQLiteStoreSchema {
    /// Version 16: when each user was last online (docs/protocol.md, "Last seen"), to the
    /// minute, written when their last connection closes. A table of its own so that the
    /// users' rows, read on every sign-in, stay as they are; no row: never seen offline.
    static let lastSeen = """
        CREATE TABLE last_seen (
            user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            seen_at INTEGER NOT NULL
        ) STRICT;
        """
}
