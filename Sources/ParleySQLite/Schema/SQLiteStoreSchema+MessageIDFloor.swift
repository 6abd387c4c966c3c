extension SQLiteStoreSchema {
    /// Version 7: message ids without `AUTOINCREMENT`, still never reused. `AUTOINCREMENT`
    /// reads the table's row of `sqlite_sequence` and writes it back on every insert: in
    /// the writer's profile that was ≈ 4,000 instructions a message and one more page (a WAL
    /// frame, ≈ 6,000) a commit. Instead:
    ///
    /// - `message_id_floor` holds one number, the largest id ever deleted (at first the old
    ///   counter, which may be ahead of the largest id left), kept by a trigger on delete;
    ///   nothing writes it when messages are only added, which is all the server does.
    /// - Every insert (`SendStatements.insertSQL`) gives the id itself: one more than both
    ///   the largest id in the table and the floor. So an id is never handed out twice,
    ///   even after the newest messages are deleted, and across restarts, since both
    ///   numbers live in the database. The writer reads them for its first message and then
    ///   counts on in memory (`SendStatements.messageID()`): it is the only connection that
    ///   adds messages, and if something else did, the insert's primary key refuses the
    ///   duplicate and the writer reads them again.
    ///
    /// The table is rebuilt like version 6 (which see for foreign keys); the floor is read
    /// from `sqlite_sequence` before the drop removes the table's row there.
    static let messageIDFloor = """
        CREATE TABLE message_id_floor (
            high INTEGER NOT NULL
        ) STRICT;
        INSERT INTO message_id_floor (high)
            VALUES (coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0));
        CREATE TABLE messages_rebuilt (
            -- Given by the insert: see message_id_floor (schema version 7).
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            -- Not `kind IN (…)`: see schema version 6.
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
