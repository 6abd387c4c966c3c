extension SQLiteStoreSchema {
    /// Version 17: group governance (docs/protocol.md, "Group governance").
    ///
    /// - `members` rebuilt: its role check gains `admin` (SQLite cannot change a `CHECK` in
    ///   place; see version 6 for the procedure, and no table refers to `members`), and
    ///   `history_from`, the sequence number before which a member sees nothing (0: all).
    /// - `group_policies`: a group's join mode and whether newcomers see earlier history; no
    ///   row (groups older than this step) means open, with history shown, as before.
    /// - `conversation_bans`: who is barred from a group or room, by id.
    /// - `group_mutes`: members who may read but not post until a time.
    /// - `group_join_requests`: requests to join `approval` groups.
    /// - `group_invites`: invite links, and (with `invitee`) a member's invitation of one user.
    static let governance = """
        CREATE TABLE members_rebuilt (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            role            TEXT NOT NULL CHECK (role = 'owner' OR role = 'admin' OR role = 'member'),
            joined_at       INTEGER NOT NULL,
            read_seq        INTEGER NOT NULL DEFAULT 0,
            history_from    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO members_rebuilt (conversation_id, user_id, role, joined_at, read_seq)
            SELECT conversation_id, user_id, role, joined_at, read_seq FROM members;
        DROP TABLE members;
        ALTER TABLE members_rebuilt RENAME TO members;
        CREATE INDEX members_by_user ON members (user_id);

        CREATE TABLE group_policies (
            conversation_id INTEGER PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
            join_mode       TEXT NOT NULL CHECK (join_mode IN ('open', 'approval', 'invite')),
            show_history    INTEGER NOT NULL CHECK (show_history = 0 OR show_history = 1)
        ) STRICT;

        CREATE TABLE conversation_bans (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            banned_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
            reason          TEXT,
            created_at      INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX conversation_bans_by_user ON conversation_bans (user_id);
        CREATE INDEX conversation_bans_by_actor ON conversation_bans (banned_by);

        CREATE TABLE group_mutes (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            until           INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX group_mutes_by_user ON group_mutes (user_id);

        CREATE TABLE group_join_requests (
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at      INTEGER NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX group_join_requests_by_user ON group_join_requests (user_id);

        CREATE TABLE group_invites (
            token           TEXT PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            created_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
            invitee         INTEGER REFERENCES users (id) ON DELETE CASCADE,
            created_at      INTEGER NOT NULL,
            expires_at      INTEGER,
            max_uses        INTEGER,
            uses            INTEGER NOT NULL DEFAULT 0,
            revoked         INTEGER NOT NULL DEFAULT 0 CHECK (revoked = 0 OR revoked = 1)
        ) STRICT;
        CREATE INDEX group_invites_by_conversation ON group_invites (conversation_id, created_at);
        CREATE INDEX group_invites_by_creator ON group_invites (created_by);
        CREATE INDEX group_invites_by_invitee ON group_invites (invitee);
        """
}
