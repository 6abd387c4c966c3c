extension SQLiteStoreSchema {
    /// Version 22: personal eventing nodes (XEP-0163) that Jabber clients publish to, other
    /// than the ones mapped onto the profile and bookmarks (docs/xmpp.md): an item per user,
    /// node and item id, its payload the client's XML as text. A node is its items: its
    /// settings (access model, most items kept) are written on each of its rows, and it
    /// exists while it holds one. `position` orders a node's items (newest highest).
    static let pepItems = """
        CREATE TABLE pep_items (
            user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            node         TEXT NOT NULL,
            item_id      TEXT NOT NULL,
            payload      TEXT NOT NULL,
            position     INTEGER NOT NULL,
            access_model TEXT NOT NULL CHECK (access_model = 'open' OR access_model = 'presence' OR access_model = 'whitelist'),
            max_items    INTEGER NOT NULL,
            PRIMARY KEY (user_id, node, item_id)
        ) STRICT;
        CREATE INDEX pep_items_by_position ON pep_items (user_id, node, position);
        """
}
