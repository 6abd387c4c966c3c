extension SQLiteStoreSchema {
    /// Version 6: `messages` rebuilt, for the cost of every insert; the rows, their ids and
    /// what the table accepts stay the same.
    ///
    /// - The `kind` check is spelled as comparisons joined by `OR` instead of
    ///   `kind IN ('text', 'image', 'system')`: SQLite evaluates an `IN` list of more than two
    ///   constants by building a temporary b-tree of the list, and in a `CHECK` it did so for
    ///   every row inserted (a quarter of the writer's instructions per message).
    /// - No `AUTOINCREMENT`, which reads the table's row of `sqlite_sequence` and writes it
    ///   back on every insert (≈ 4,000 instructions a message and one more page, a WAL frame,
    ///   a commit). Ids are still never reused: `message_id_floor` holds one number, the
    ///   largest id ever deleted (at first the old counter, which may be ahead of the largest
    ///   id left), kept by a trigger on delete; nothing writes it when messages are only
    ///   added, which is all the server does. Every insert (`SendStatements.insertSQL`) gives
    ///   the id itself: one more than both the largest id in the table and the floor, so an
    ///   id is never handed out twice, even after the newest messages are deleted, and across
    ///   restarts, since both numbers live in the database. The writer reads them for its
    ///   first message and then counts on in memory (`SendStatements.messageID()`): it is the
    ///   only connection that adds messages, and if something else did, the insert's primary
    ///   key refuses the duplicate and the writer reads them again.
    ///
    /// SQLite cannot change a `CHECK` or drop `AUTOINCREMENT` in place, so the table is
    /// rebuilt (create, copy, drop, rename, recreate the archive index) in the migration's
    /// transaction. Foreign keys stay on: SQLite's rebuild procedure turns them off so that
    /// dropping the old table cannot act on tables that refer to it, and no table refers to
    /// `messages`; the copy itself is checked against `conversations` and `users` row by row.
    /// The floor is read from `sqlite_sequence` before the drop removes the table's row there.
    static let messagesRebuild = """
        CREATE TABLE message_id_floor (
            high INTEGER NOT NULL
        ) STRICT;
        INSERT INTO message_id_floor (high)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0));
        CREATE TABLE messages_rebuilt (
            -- Given by the insert: see message_id_floor (schema version 6).
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            -- Comparisons, not `kind IN (…)`: see schema version 6.
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
        DROP TABLE messages;
        ALTER TABLE messages_rebuilt RENAME TO messages;
        CREATE INDEX messages_archive ON messages (conversation_id, created_at, id) WHERE kind <> 'system';
        CREATE TRIGGER messages_raise_id_floor AFTER DELETE ON messages BEGIN
            UPDATE message_id_floor SET high = max(high, OLD.id);
        END;
        """
}
