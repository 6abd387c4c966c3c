extension PostgresStoreSchema {
    /// Version 17: `file` and `voice` messages; the `kind` check widened in place (voice's
    /// media column is version 19).
    static let fileMessages = """
        ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
        ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN ('text', 'image', 'system', 'file', 'voice'));
        """
}
