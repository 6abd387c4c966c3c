extension SQLiteStoreSchema {
    /// Version 15: full-text search over message text (`MessageSearchReader`).
    ///
    /// An FTS5 table with the trigram tokenizer, so any substring of three characters or more
    /// is found, Chinese and Japanese included (no word breaks needed), without regard to
    /// case. It keeps no copy of the text (`content='messages'`): FTS5 reads the text from
    /// `messages` by id when it needs it. Triggers keep it in step inside the very statement
    /// that inserts, edits, recalls (text set NULL) or deletes a message, so the index is
    /// always committed with the message and a crash cannot leave them apart. System
    /// notices are not indexed. The index of existing messages is built here, once. So the
    /// FTS5 commands that assume every row of `messages` indexed (`'rebuild'`, and
    /// `'integrity-check'` with `rank = 1`) must not be used on it.
    ///
    /// For `user.search` (people by username or nickname prefix): who turned `findable` off
    /// (few do, so a table of them rather than a column every user carries), and an index of
    /// lowercased nicknames for prefix ranges (usernames have `username_key`'s).
    static let messageSearch = """
        CREATE VIRTUAL TABLE messages_search USING fts5 (
            text, content = 'messages', content_rowid = 'id', tokenize = 'trigram'
        );
        INSERT INTO messages_search (rowid, text)
            SELECT id, text FROM messages WHERE kind <> 'system' AND text IS NOT NULL;
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
        CREATE TABLE unfindable_users (
            user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE
        ) STRICT;
        CREATE INDEX users_by_nickname ON users (lower(nickname));
        """
}
