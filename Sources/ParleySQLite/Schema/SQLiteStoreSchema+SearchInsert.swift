extension SQLiteStoreSchema {
    /// Version 21: a new message's text goes into the full-text index (`messages_search`,
    /// version 15) from the send's own statements (`SendStatements.indexSQL`), not from a
    /// trigger. An insert that fires a trigger runs in a statement savepoint, and FTS5
    /// flushes its pending index to disk at every savepoint: per message, that was more
    /// work than the rest of the send. Edits and deletions keep their triggers (they are
    /// rare, and each is a write of its own anyway).
    static let searchIndexWithoutInsertTrigger = """
        DROP TRIGGER messages_search_insert;
        """
}
