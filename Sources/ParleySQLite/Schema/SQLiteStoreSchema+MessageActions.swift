extension SQLiteStoreSchema {
    /// Version 10: what message actions keep beside the messages (docs/protocol.md, "Message
    /// actions"). A message's own state (edit and recall marks, reactions, the answered
    /// message, mentions) is in its `body` JSON; these tables hold what is per user or per
    /// conversation.
    ///
    /// - `hidden_messages`: "delete for me", per user; history and sync leave these out for
    ///   that user only.
    /// - `pinned_messages`: the short pinned list of a conversation.
    /// - `message_mentions`: one row per mentioned member of a message (`user_id` NULL for
    ///   `@all`), so the sessions list counts unread mentions after each read marker with one
    ///   indexed range per conversation; `sender_id` so that `@all` does not count for its
    ///   sender.
    static let messageActions = """
        CREATE TABLE hidden_messages (
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            message_id      INTEGER NOT NULL,
            hidden_at       INTEGER NOT NULL,
            PRIMARY KEY (user_id, conversation_id, message_id)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE pinned_messages (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            message_id      INTEGER NOT NULL,
            pinned_by       INTEGER NOT NULL,
            pinned_at       INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, message_id)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE message_mentions (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            sender_id       INTEGER NOT NULL,
            user_id         INTEGER
        ) STRICT;
        CREATE INDEX message_mentions_by_position ON message_mentions (conversation_id, seq);
        """
}
