extension SQLiteStoreSchema {
    /// Version 13: deleted accounts. A deleted user's row stays (messages name their sender)
    /// with every personal field emptied and `deleted_at` set; its username is reserved for
    /// a while by the hash of its lowercased form, so the reservation keeps no name.
    static let accountDeletion = """
        ALTER TABLE users ADD COLUMN deleted_at INTEGER;
        CREATE TABLE username_quarantine (
            username_hash BLOB PRIMARY KEY,
            until_at      INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX username_quarantine_by_end ON username_quarantine (until_at);
        """
}
