extension PostgresStoreSchema {
    /// Version 12: deleted accounts and reserved usernames (SQLite's version 13).
    static let accountDeletion = """
        ALTER TABLE users ADD COLUMN deleted_at BIGINT;
        CREATE TABLE username_quarantine (
            username_hash BYTEA PRIMARY KEY,
            until_at      BIGINT NOT NULL
        );
        CREATE INDEX username_quarantine_by_end ON username_quarantine (until_at);
        """
}
