extension PostgresStoreSchema {
    /// Version 20: personal eventing nodes (SQLite's version 22, which says what the table
    /// is for).
    static let pepItems = """
        CREATE TABLE pep_items (
            user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            node         TEXT NOT NULL,
            item_id      TEXT NOT NULL,
            payload      TEXT NOT NULL,
            position     BIGINT NOT NULL,
            access_model TEXT NOT NULL CHECK (access_model IN ('open', 'presence', 'whitelist')),
            max_items    INTEGER NOT NULL,
            CONSTRAINT pep_items_pkey PRIMARY KEY (user_id, node, item_id)
        );
        CREATE INDEX pep_items_by_position ON pep_items (user_id, node, position);
        """
}
