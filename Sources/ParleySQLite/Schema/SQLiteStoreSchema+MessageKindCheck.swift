extension SQLiteStoreSchema {
    /// Version 6: `messages` rebuilt with its `kind` check spelled as comparisons joined by
    /// `OR` instead of `kind IN ('text', 'image', 'system')`. SQLite evaluates an `IN` list
    /// of more than two constants by building a temporary b-tree of the list, and in a
    /// `CHECK` it does so for every row inserted: that was a quarter of the writer's
    /// instructions per message on the send path. The comparisons accept exactly the same
    /// values.
    ///
    /// SQLite cannot change a `CHECK` in place, so the table is rebuilt (create, copy, drop,
    /// rename, recreate the archive index) in the migration's transaction. Foreign keys stay
    /// on: SQLite's rebuild procedure turns them off so that dropping the old table cannot
    /// act on tables that refer to it, and no table refers to `messages`; the copy itself is
    /// checked against `conversations` and `users` row by row. `AUTOINCREMENT` stays (ids
    /// are never reused), and the counter is carried over, since it may be ahead of the
    /// largest id left in the table (when the newest messages were deleted); the rename
    /// carries it to the new table's name.
    static let messageKindCheck = """
        CREATE TABLE messages_rebuilt (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            -- Not `kind IN (…)`: see version 6.
            kind            TEXT NOT NULL CHECK (kind = 'text' OR kind = 'image' OR kind = 'system'),
            text            TEXT,
            -- JSON: the image attachment and/or system notice.
            body            TEXT CHECK (body IS NULL OR json_valid(body)),
            created_at      INTEGER NOT NULL,
            -- Paging by seq, the last message of the inbox, the gapless guarantee's last line.
            UNIQUE (conversation_id, seq),
            -- Idempotent sends; a NULL sender or client id is never a duplicate.
            UNIQUE (sender_id, client_id)
        ) STRICT;
        INSERT INTO messages_rebuilt (id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at)
            SELECT id, conversation_id, seq, sender_id, client_id, kind, text, body, created_at FROM messages;
        DELETE FROM sqlite_sequence WHERE name = 'messages_rebuilt';
        INSERT INTO sqlite_sequence (name, seq) SELECT 'messages_rebuilt', seq FROM sqlite_sequence WHERE name = 'messages';
        DROP TABLE messages;
        ALTER TABLE messages_rebuilt RENAME TO messages;
        CREATE INDEX messages_archive ON messages (conversation_id, created_at, id) WHERE kind <> 'system';
        """
}
