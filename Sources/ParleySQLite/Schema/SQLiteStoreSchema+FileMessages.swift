extension SQLiteStoreSchema {
    /// Version 18: `file` and `voice` messages (voice's media column is version 20). SQLite
    /// cannot widen a `CHECK` in place, so `messages` is rebuilt as in version 6 (create,
    /// copy, drop, rename) with `kind = 'file'` and `kind = 'voice'` allowed, and
    /// what the drop took with it is made again: the archive index, the id floor's trigger and
    /// the search index's three triggers (version 15). The rows keep their ids, so the search
    /// index, which refers to them by id, stays as it is; the drop fires no trigger, so neither
    /// the floor nor the index sees the copy's rows leave.
    static let fileMessages = """
        CREATE TABLE messages_rebuilt (
            -- Given by the insert: see message_id_floor (schema version 6).
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            -- Comparisons, not `kind IN (…)`: see schema version 6.
            kind            TEXT NOT NULL CHECK (kind = 'text' OR kind = 'image' OR kind = 'system' OR kind = 'file'
                                          OR kind = 'voice'),
            text            TEXT,
            -- JSON: the image, file or voice attachment and/or system notice, and message actions' state.
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
        """
}
