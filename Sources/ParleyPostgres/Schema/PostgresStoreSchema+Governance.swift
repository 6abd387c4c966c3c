extension PostgresStoreSchema {
    /// Version 16: group governance (SQLite's version 17, which says what each table is for).
    static let governance = """
        ALTER TABLE members DROP CONSTRAINT members_role_check;
        ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN ('owner', 'admin', 'member'));
        ALTER TABLE members ADD COLUMN history_from BIGINT NOT NULL DEFAULT 0;

        CREATE TABLE group_policies (
            conversation_id BIGINT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
            join_mode       TEXT NOT NULL CHECK (join_mode IN ('open', 'approval', 'invite')),
            show_history    BOOLEAN NOT NULL
        );

        CREATE TABLE conversation_bans (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            banned_by       BIGINT REFERENCES users (id) ON DELETE SET NULL,
            reason          TEXT,
            created_at      BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        );
        CREATE INDEX conversation_bans_by_user ON conversation_bans (user_id);
        CREATE INDEX conversation_bans_by_actor ON conversation_bans (banned_by);

        CREATE TABLE group_mutes (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            until           BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        );
        CREATE INDEX group_mutes_by_user ON group_mutes (user_id);

        CREATE TABLE group_join_requests (
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at      BIGINT NOT NULL,
            PRIMARY KEY (conversation_id, user_id)
        );
        CREATE INDEX group_join_requests_by_user ON group_join_requests (user_id);

        CREATE TABLE group_invites (
            token           TEXT PRIMARY KEY,
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            created_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
            invitee         BIGINT REFERENCES users (id) ON DELETE CASCADE,
            created_at      BIGINT NOT NULL,
            expires_at      BIGINT,
            max_uses        INTEGER,
            uses            INTEGER NOT NULL DEFAULT 0,
            revoked         BOOLEAN NOT NULL DEFAULT FALSE
        );
        CREATE INDEX group_invites_by_conversation ON group_invites (conversation_id, created_at);
        CREATE INDEX group_invites_by_creator ON group_invites (created_by);
        CREATE INDEX group_invites_by_invitee ON group_invites (invitee);
        """
}
