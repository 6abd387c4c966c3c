extension PostgresStoreSchema {
    /// Version 15: last seen (SQLite's version 16, which says what the table is for).
    static let lastSeen = """
        CREATE TABLE last_seen (
            user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            seen_at BIGINT NOT NULL
        );
        """
}
