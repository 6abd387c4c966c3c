extension SQLiteStoreSchema {
    /// Version 25: messages join the full-text index (`messages_search`, version 15) after
    /// their send, many in one transaction (`SearchIndexer`), no longer in the send's own
    /// statements (version 21): FTS5 costs far less per row in big transactions, and the
    /// send's transaction is the one every acknowledgement waits for.
    ///
    /// `search_index_watermark` holds the highest message id indexed (one row), written in
    /// the same transaction as the index rows it covers; every message up to here was indexed
    /// by then. Search reads the messages above it directly. The edit and deletion triggers
    /// now leave messages above it alone: they are not in the index, and will be indexed with
    /// their text as it is then (an FTS5 `'delete'` of a row it never held would corrupt it).
    static let searchIndexWatermark = """
        CREATE TABLE search_index_watermark (
            only            INTEGER PRIMARY KEY CHECK (only = 1),
            indexed_through INTEGER NOT NULL
        ) STRICT;
        INSERT INTO search_index_watermark (only, indexed_through) VALUES (1, coalesce((SELECT max(id) FROM messages), 0));
        DROP TRIGGER messages_search_update;
        DROP TRIGGER messages_search_delete;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
            WHEN OLD.text IS NOT NEW.text AND OLD.id <= (SELECT indexed_through FROM search_index_watermark) BEGIN
            INSERT INTO messages_search (messages_search, rowid, text)
                SELECT 'delete', OLD.id, OLD.text WHERE OLD.kind <> 'system' AND OLD.text IS NOT NULL;
            INSERT INTO messages_search (rowid, text)
                SELECT NEW.id, NEW.text WHERE NEW.kind <> 'system' AND NEW.text IS NOT NULL;
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
            WHEN OLD.kind <> 'system' AND OLD.text IS NOT NULL
              AND OLD.id <= (SELECT indexed_through FROM search_index_watermark) BEGIN
            INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
        END;
        """
}
