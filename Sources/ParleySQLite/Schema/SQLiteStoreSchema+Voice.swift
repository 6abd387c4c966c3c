extension SQLiteStoreSchema {
    /// Version 16: voice messages (docs/protocol.md, "Voice messages").
    ///
    /// - `messages.kind` may be `voice`. SQLite cannot change a `CHECK` in place, so the
    ///   table is rebuilt as in version 6 (same columns, ids and rows; the check spelled as
    ///   comparisons joined by `OR`), and what version 6 and 15 hung on it comes back: the
    ///   archive index, the id floor's trigger and the search index's triggers. Dropping a
    ///   table drops its triggers before its rows go, so the search index (which reads the
    ///   text by id from whatever table is called `messages`) is left as it was, and it still
    ///   matches the copied rows. A voice message's recording, length and waveform live in
    ///   `body` like an image.
    /// - `media.duration_ms`: a recording's length as its container records it, read when
    ///   it is uploaded, so a send can hold the client's stated length against it without
    ///   reading the file again; NULL for images.
    static let voiceMessages = """
        CREATE TABLE messages_rebuilt (
            -- Given by the insert: see message_id_floor (schema version 6).
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            -- Comparisons, not `kind IN (…)`: see schema version 6.
            kind            TEXT NOT NULL CHECK (kind = 'text' OR kind = 'image' OR kind = 'system' OR kind = 'voice'),
            text            TEXT,
            -- JSON: the image or voice attachment and/or system notice, and action state.
            body            TEXT CHECK (body IS NULL OR json_valid(body)),
            created_at      INTEGER NOT NULL,
            UNIQUE (conversation_id, seq),
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
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
            WHEN NEW.kind <> 'system' AND NEW.text IS NOT NULL BEGIN
            INSERT INTO messages_search (rowid, text) VALUES (NEW.id, NEW.text);
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
            WHEN OLD.text IS NOT NEW.text BEGIN
            INSERT INTO messages_search (messages_search, rowid, text)
                SELECT 'delete', OLD.id, OLD.text WHERE OLD.kind <> 'system' AND OLD.text IS NOT NULL;
            INSERT INTO messages_search (rowid, text)
                SELECT NEW.id, NEW.text WHERE NEW.kind <> 'system' AND NEW.text IS NOT NULL;
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
            WHEN OLD.kind <> 'system' AND OLD.text IS NOT NULL BEGIN
            INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
        END;
        ALTER TABLE media ADD COLUMN duration_ms INTEGER;
        """
}
