/// The PostgreSQL store's schema history. Migrations are append-only: a released step is
/// never edited, since databases in the field have already run it; changes come as new steps.
///
/// The tables mirror the SQLite store's, so both keep the same rules: times are `BIGINT`
/// milliseconds since the epoch (UTC); ids are `BIGINT` identities, never reused; public
/// random ids are `TEXT`; hashes are `BYTEA`; JSON columns are `JSONB`. Case-insensitive
/// names keep a `*_key` column of the name lowercased by Swift (as in SQLite), with a unique
/// index on it, so that both stores agree on which names collide.
///
/// Unique constraints carry explicit names: the store maps a refused duplicate to
/// `StoreError.conflict` by the constraint's name, which is stable, unlike message text.
enum PostgresStoreSchema {
    /// Every step, in order.
    static let migrator = PostgresMigrator([
        PostgresMigration(version: 1, sql: accounts),
        PostgresMigration(version: 2, sql: messaging),
        PostgresMigration(version: 3, sql: smsSends),
        PostgresMigration(version: 4, sql: scramCredentials),
        PostgresMigration(version: 5, sql: archiveIndex),
        PostgresMigration(version: 6, sql: textClipping),
        PostgresMigration(version: 7, sql: mediaReferences),
        PostgresMigration(version: 8, sql: xmppPrivateItems),
        PostgresMigration(version: 9, sql: messageActions),
        PostgresMigration(version: 10, sql: pushNotifications),
        PostgresMigration(version: 11, sql: sessionDevices),
        PostgresMigration(version: 12, sql: accountDeletion),
        PostgresMigration(version: 13, sql: receipts),
        PostgresMigration(version: 14, sql: messageSearch),
        PostgresMigration(version: 15, sql: lastSeen),
        PostgresMigration(version: 16, sql: governance),
        PostgresMigration(version: 17, sql: fileMessages),
        PostgresMigration(version: 18, sql: moderation),
        PostgresMigration(version: 19, sql: voiceMessages),
        PostgresMigration(version: 20, sql: pepItems),
        PostgresMigration(version: 21, sql: mediaAccess),
        PostgresMigration(version: 22, sql: auditActor),
    ])

    /// Version 10: push notifications (SQLite's version 11): push targets owned by the sign-in
    /// session that registered them, unique by `address`; mutes; the preview setting.
    static let pushNotifications = """
        CREATE TABLE push_targets (
            id         TEXT PRIMARY KEY,
            user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            kind       TEXT NOT NULL CHECK (kind IN ('web', 'gateway')),
            address    TEXT NOT NULL,
            endpoint   TEXT NOT NULL,
            p256dh     BYTEA NOT NULL,
            auth       BYTEA NOT NULL,
            app_id     TEXT NOT NULL,
            pushkey    TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            CONSTRAINT push_targets_address UNIQUE (kind, address)
        );
        CREATE INDEX push_targets_by_user ON push_targets (user_id);
        CREATE INDEX push_targets_by_session ON push_targets (session_id);

        CREATE TABLE conversation_mutes (
            user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            until           BIGINT,
            mentions_only   BOOLEAN NOT NULL,
            PRIMARY KEY (user_id, conversation_id)
        );
        CREATE INDEX conversation_mutes_by_conversation ON conversation_mutes (conversation_id);

        CREATE TABLE notification_settings (
            user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            preview TEXT NOT NULL CHECK (preview IN ('full', 'sender', 'nothing'))
        );
        """

    /// Version 8: the XMPP gateway's per-user storage (SQLite's version 9): private XML
    /// (XEP-0049) and roster names and groups, by key.
    static let xmppPrivateItems = """
        CREATE TABLE xmpp_private_items (
            user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            item_key TEXT NOT NULL,
            value    TEXT NOT NULL,
            PRIMARY KEY (user_id, item_key)
        );
        """

    /// Version 7: when an upload was first used (SQLite's version 8).
    static let mediaReferences = """
        ALTER TABLE media ADD COLUMN referenced_at BIGINT;
        UPDATE media SET referenced_at = created_at;
        CREATE INDEX media_unreferenced ON media (created_at) WHERE referenced_at IS NULL;
        """

    /// Version 5: the message archive (`ArchiveRange`: every message but system notices, by
    /// creation time then id), read by the XMPP gateway's archive queries (XEP-0313) by time
    /// and across conversations. Partial, so notices take no room in it and counting a range
    /// can be answered from the index.
    static let archiveIndex = """
        CREATE INDEX messages_archive ON messages (conversation_id, created_at, id) WHERE kind <> 'system';
        """

    /// Version 4: SCRAM credentials for the XMPP gateway's SCRAM sign-in (docs/xmpp.md), per
    /// user and mechanism: salt, PBKDF2 iterations and the two derived keys.
    static let scramCredentials = """
        CREATE TABLE scram_credentials (
            user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            mechanism  TEXT NOT NULL,
            salt       BYTEA NOT NULL,
            iterations BIGINT NOT NULL CHECK (iterations > 0),
            stored_key BYTEA NOT NULL,
            server_key BYTEA NOT NULL,
            PRIMARY KEY (user_id, mechanism)
        );
        """

    /// Version 3: when SMS codes were sent, per number, so the daily limit per number
    /// survives a restart. Rows older than a day are deleted as new ones come.
    static let smsSends = """
        CREATE TABLE sms_sends (
            phone   TEXT NOT NULL,
            sent_at BIGINT NOT NULL
        );
        CREATE INDEX sms_sends_by_phone ON sms_sends (phone, sent_at);
        CREATE INDEX sms_sends_by_time ON sms_sends (sent_at);
        """

    /// Constraint names and the conflict each stands for (see `StoreError.conflict`).
    static let conflicts: [String: String] = [
        "users_username_key": "username",
        "users_phone_key": "phone",
        "friend_requests_pair_key": "friend_request",
        "conversations_name_key": "name",
        "conversations_pair_key": "pair",
        "messages_client_id_key": "client_id",
    ]

    /// Version 1: accounts, their sessions, uploaded media and outstanding SMS codes.
    static let accounts = """
        CREATE TABLE users (
            id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            username      TEXT,
            -- The username lowercased: unique without regard to case, and the lookup key.
            username_key  TEXT CONSTRAINT users_username_key UNIQUE,
            password_hash TEXT,
            phone         TEXT CONSTRAINT users_phone_key UNIQUE,
            nickname      TEXT,
            avatar        TEXT,
            signature     TEXT,
            age           BIGINT,
            hobbies       JSONB NOT NULL DEFAULT '[]',
            created_at    BIGINT NOT NULL,
            CHECK ((username IS NULL) = (username_key IS NULL))
        );

        -- Deleting a user signs out every device.
        CREATE TABLE sessions (
            id           TEXT PRIMARY KEY,
            user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            token_hash   BYTEA NOT NULL CONSTRAINT sessions_token_hash_key UNIQUE,
            created_at   BIGINT NOT NULL,
            last_seen_at BIGINT NOT NULL,
            user_agent   TEXT
        );
        CREATE INDEX sessions_by_user ON sessions (user_id);

        -- No cascade: the image files must be removed before their records.
        CREATE TABLE media (
            id         TEXT PRIMARY KEY,
            owner_id   BIGINT NOT NULL REFERENCES users (id),
            type       TEXT NOT NULL,
            width      BIGINT NOT NULL,
            height     BIGINT NOT NULL,
            size       BIGINT NOT NULL,
            created_at BIGINT NOT NULL
        );
        CREATE INDEX media_by_owner ON media (owner_id);

        CREATE TABLE sms_challenges (
            phone           TEXT PRIMARY KEY,
            code_hash       BYTEA NOT NULL,
            sent_at         BIGINT NOT NULL,
            expires_at      BIGINT NOT NULL,
            failed_attempts BIGINT NOT NULL DEFAULT 0
        );
        """
}
