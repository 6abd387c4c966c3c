extension SQLiteStoreSchema {
    /// Version 2: friends, blocks, discover swipes, conversations, their members and messages.
    ///
    /// Foreign keys: rows that only relate people (requests, friendships, blocks, swipes,
    /// memberships) go with the user or conversation they name. Content (conversations,
    /// messages) does not: deleting a user who owns a group or sent messages is refused
    /// until account deletion decides what becomes of them. Every referencing column has an
    /// index (or leads one), so the foreign-key check on deleting a parent never scans.
    static let messaging = """
        -- 1:1 conversations (user_a < user_b), groups and rooms. AUTOINCREMENT: an id is never
        -- reused, since clients keep conversation ids in their caches and outboxes.
        CREATE TABLE conversations (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            kind             TEXT NOT NULL CHECK (kind IN ('user', 'group', 'room')),
            name             TEXT,
            -- The name lowercased: unique per kind without regard to case, and the lookup
            -- key. Per kind, so that a group and a room may share a name.
            name_key         TEXT,
            avatar           TEXT,
            description      TEXT,
            owner_id         INTEGER REFERENCES users (id),
            user_a           INTEGER REFERENCES users (id),
            user_b           INTEGER REFERENCES users (id),
            -- The newest message's seq: the counter appendMessage advances, so sequences
            -- stay gapless without scanning messages.
            last_seq         INTEGER NOT NULL DEFAULT 0,
            last_activity_at INTEGER NOT NULL,
            created_at       INTEGER NOT NULL,
            UNIQUE (kind, name_key),
            -- One 1:1 conversation per pair; NULLs (groups, rooms) never collide.
            UNIQUE (user_a, user_b),
            CHECK ((name IS NULL) = (name_key IS NULL)),
            CHECK ((user_a IS NULL) = (user_b IS NULL)),
            CHECK (user_a < user_b),
            CHECK ((kind = 'user') = (user_a IS NOT NULL))
        ) STRICT;
        CREATE INDEX conversations_by_owner ON conversations (owner_id) WHERE owner_id IS NOT NULL;
        CREATE INDEX conversations_by_user_b ON conversations (user_b) WHERE user_b IS NOT NULL;

        -- Members of 1:1 and group conversations with their read markers (room occupancy
        -- lives in memory).
        CREATE TABLE members (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            role            TEXT NOT NULL CHECK (role IN ('owner', 'member')),
            joined_at       INTEGER NOT NULL,
            read_seq        INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        -- A user's conversations (the inbox); carries conversation_id, so it covers the join.
        CREATE INDEX members_by_user ON members (user_id);

        -- id is the server's message id. AUTOINCREMENT: ids are never reused, even after the
        -- newest message is deleted, since clients deduplicate by them.
        CREATE TABLE messages (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            seq             INTEGER NOT NULL,
            -- NULL for system notifications.
            sender_id       INTEGER REFERENCES users (id),
            client_id       TEXT,
            kind            TEXT NOT NULL CHECK (kind IN ('text', 'image', 'system')),
            text            TEXT,
            -- JSON: the image attachment and/or system notice. Neither is searched by SQL,
            -- and JSON lets both grow fields without a migration.
            body            TEXT CHECK (body IS NULL OR json_valid(body)),
            created_at      INTEGER NOT NULL,
            -- Paging by seq, the last message of the inbox, and the gapless guarantee's
            -- last line of defence.
            UNIQUE (conversation_id, seq),
            -- Idempotent sends; a NULL sender or client id is never a duplicate.
            UNIQUE (sender_id, client_id)
        ) STRICT;

        -- Pending requests only: accepting or declining deletes the row. Rowid order breaks
        -- ties between requests of the same millisecond.
        CREATE TABLE friend_requests (
            id         TEXT PRIMARY KEY,
            from_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            to_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            greeting   TEXT,
            created_at INTEGER NOT NULL,
            UNIQUE (from_id, to_id),
            CHECK (from_id != to_id)
        ) STRICT;
        CREATE INDEX friend_requests_to ON friend_requests (to_id, created_at);

        -- Both sides of each friendship, so "my friends" is one range of the key.
        CREATE TABLE friendships (
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            friend_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id),
            since           INTEGER NOT NULL,
            PRIMARY KEY (user_id, friend_id),
            CHECK (user_id != friend_id)
        ) STRICT;
        CREATE INDEX friendships_by_friend ON friendships (friend_id);
        CREATE INDEX friendships_by_conversation ON friendships (conversation_id);

        CREATE TABLE blocks (
            user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            target_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (user_id, target_id),
            CHECK (user_id != target_id)
        ) STRICT;
        CREATE INDEX blocks_by_target ON blocks (target_id);

        -- ordinal (the rowid) orders a user's swipes by when they were saved, which created_at
        -- cannot do within one millisecond or across a clock step: undo must take back the
        -- newest. A re-swipe replaces the row, so it gets a new, highest ordinal.
        CREATE TABLE swipes (
            ordinal    INTEGER PRIMARY KEY,
            user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            target_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            liked      INTEGER NOT NULL CHECK (liked IN (0, 1)),
            created_at INTEGER NOT NULL,
            UNIQUE (user_id, target_id),
            CHECK (user_id != target_id)
        ) STRICT;
        -- Index entries are ordered by rowid within each user: the newest swipe is the last.
        CREATE INDEX swipes_by_user ON swipes (user_id);
        CREATE INDEX swipes_by_target ON swipes (target_id);
        """
}
