import ParleySQL

/// The store's schema history. Migrations are append-only: a released step is never edited,
/// since databases in the field have already run it; changes come as new steps.
///
/// Conventions: `STRICT` tables, so a value of the wrong type is refused on the way in rather
/// than discovered on the way out (needs SQLite 3.37); times are integer milliseconds since
/// the epoch (UTC); user ids are `INTEGER`; public random ids are `TEXT`; hashes are `BLOB`.
/// A `CHECK` on a table written per message spells a list of allowed values as comparisons
/// joined by `OR`, never `IN` with more than two values: SQLite builds a temporary b-tree for
/// such a list every time the check runs (see version 6).
enum SQLiteStoreSchema {
    /// Every step, in order.
    static let migrator = SQLiteMigrator([
        SQLiteMigration(version: 1, sql: accounts),
        SQLiteMigration(version: 2, sql: messaging),
        SQLiteMigration(version: 3, sql: smsSends),
        SQLiteMigration(version: 4, sql: scramCredentials),
        SQLiteMigration(version: 5, sql: archiveIndex),
        SQLiteMigration(version: 6, sql: messagesRebuild),
        SQLiteMigration(version: 7, sql: textClipping),
        SQLiteMigration(version: 8, sql: mediaReferences),
        SQLiteMigration(version: 9, sql: xmppPrivateItems),
        SQLiteMigration(version: 10, sql: messageActions),
        SQLiteMigration(version: 11, sql: pushNotifications),
        SQLiteMigration(version: 12, sql: sessionDevices),
        SQLiteMigration(version: 13, sql: accountDeletion),
        SQLiteMigration(version: 14, sql: receipts),
        SQLiteMigration(version: 15, sql: messageSearch),
        SQLiteMigration(version: 16, sql: lastSeen),
        SQLiteMigration(version: 17, sql: governance),
        SQLiteMigration(version: 18, sql: fileMessages),
        SQLiteMigration(version: 19, sql: moderation),
        SQLiteMigration(version: 20, sql: voiceMessages),
        SQLiteMigration(version: 21, sql: searchIndexWithoutInsertTrigger),
        SQLiteMigration(version: 22, sql: pepItems),
        SQLiteMigration(version: 23, sql: mediaAccess),
        SQLiteMigration(version: 24, sql: auditActor),
        SQLiteMigration(version: 25, sql: searchIndexWatermark),
    ])

    /// Version 11: push notifications (docs/protocol.md, "Push notifications"). Each push
    /// target belongs to the sign-in session that registered it, so signing out or revoking
    /// the session ends it; `address` (the Web Push endpoint, or a gateway app's id and push
    /// key) is unique, so a browser that subscribes again replaces its older registration.
    /// Mutes and the preview setting are the user's own, per conversation and per account.
    static let pushNotifications = """
        CREATE TABLE push_targets (
            id         TEXT PRIMARY KEY,
            user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            kind       TEXT NOT NULL CHECK (kind = 'web' OR kind = 'gateway'),
            address    TEXT NOT NULL,
            endpoint   TEXT NOT NULL,
            p256dh     BLOB NOT NULL,
            auth       BLOB NOT NULL,
            app_id     TEXT NOT NULL,
            pushkey    TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            UNIQUE (kind, address)
        ) STRICT;
        CREATE INDEX push_targets_by_user ON push_targets (user_id);
        CREATE INDEX push_targets_by_session ON push_targets (session_id);

        CREATE TABLE conversation_mutes (
            user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
            until           INTEGER,
            mentions_only   INTEGER NOT NULL CHECK (mentions_only = 0 OR mentions_only = 1),
            PRIMARY KEY (user_id, conversation_id)
        ) STRICT;
        CREATE INDEX conversation_mutes_by_conversation ON conversation_mutes (conversation_id);

        CREATE TABLE notification_settings (
            user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            preview TEXT NOT NULL CHECK (preview = 'full' OR preview = 'sender' OR preview = 'nothing')
        ) STRICT;
        """

    /// Version 9: the XMPP gateway's per-user storage (docs/xmpp.md): what a Jabber client
    /// keeps on the server and Parley has no field for, by key: private XML (XEP-0049, where
    /// clients keep bookmarks, XEP-0048) and the names and groups a user gives roster items
    /// (RFC 6121 §2.1.2). Values are XML text, each within one stanza's size.
    static let xmppPrivateItems = """
        CREATE TABLE xmpp_private_items (
            user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            item_key TEXT NOT NULL,
            value    TEXT NOT NULL,
            PRIMARY KEY (user_id, item_key)
        ) STRICT;
        """

    /// Version 8: when an upload was first used by a message or an avatar (`referenced_at`),
    /// so uploads nobody used can be removed after a grace period; uploads older than this
    /// step count as used (they may be linked from anywhere). A partial index finds the
    /// unused ones without reading the rest.
    static let mediaReferences = """
        ALTER TABLE media ADD COLUMN referenced_at INTEGER;
        UPDATE media SET referenced_at = created_at;
        CREATE INDEX media_unreferenced ON media (created_at) WHERE referenced_at IS NULL;
        """

    /// Version 5: the message archive (`ArchiveRange`: every message but system notices, by
    /// creation time then id), read by the XMPP gateway's archive queries (XEP-0313) by time
    /// and across conversations. Partial, so notices take no room in it and counting a range
    /// reads the index alone; `id` is explicit (SQLite would append it anyway) so the
    /// position comparison `(created_at, id) > (?, ?)` is a range of the index.
    static let archiveIndex = """
        CREATE INDEX messages_archive ON messages (conversation_id, created_at, id) WHERE kind <> 'system';
        """

    /// Version 3: when SMS codes were sent, per number, so the daily limit per number
    /// survives a restart (an in-memory count would let a restart reset abuse limits). Rows
    /// older than a day are deleted as new ones come.
    static let smsSends = """
        CREATE TABLE sms_sends (
            phone   TEXT NOT NULL,
            sent_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX sms_sends_by_phone ON sms_sends (phone, sent_at);
        CREATE INDEX sms_sends_by_time ON sms_sends (sent_at);
        """

    /// Version 4: SCRAM credentials for the XMPP gateway's SCRAM-SHA-1 and SCRAM-SHA-256
    /// sign-in (RFC 5802, RFC 7677; docs/xmpp.md). A challenge-response login cannot use the
    /// argon2id hash, so when the server sees a password (registration, a password sign-in
    /// over HTTP or XMPP PLAIN) it also stores, per mechanism, the salt, the PBKDF2 iteration
    /// count and the two derived keys. Accounts older than this step get them at their next
    /// password sign-in; until then only PLAIN works for them over XMPP.
    static let scramCredentials = """
        CREATE TABLE scram_credentials (
            user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            mechanism  TEXT NOT NULL,
            salt       BLOB NOT NULL,
            iterations INTEGER NOT NULL CHECK (iterations > 0),
            stored_key BLOB NOT NULL,
            server_key BLOB NOT NULL,
            PRIMARY KEY (user_id, mechanism)
        ) STRICT;
        """

    /// Version 1: accounts, their sessions, uploaded media and outstanding SMS codes.
    static let accounts = """
        -- AUTOINCREMENT so that an id is never handed out twice, even after the highest row
        -- is deleted: ids appear in messages, friend lists and other users' caches.
        CREATE TABLE users (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            username      TEXT,
            -- The username lowercased: unique without regard to case, and the lookup key.
            username_key  TEXT UNIQUE,
            password_hash TEXT,
            phone         TEXT UNIQUE,
            nickname      TEXT,
            avatar        TEXT,
            signature     TEXT,
            age           INTEGER,
            -- A JSON array of strings: round-trips any text, and SQLite's json_each can
            -- search it when discover matches people by hobby.
            hobbies       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(hobbies)),
            created_at    INTEGER NOT NULL,
            CHECK ((username IS NULL) = (username_key IS NULL))
        ) STRICT;

        -- Deleting a user signs out every device.
        CREATE TABLE sessions (
            id           TEXT PRIMARY KEY,
            user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            token_hash   BLOB NOT NULL UNIQUE,
            created_at   INTEGER NOT NULL,
            last_seen_at INTEGER NOT NULL,
            user_agent   TEXT
        ) STRICT;
        CREATE INDEX sessions_by_user ON sessions (user_id);

        -- No cascade: the image files must be removed before their records, so deleting a
        -- user who still owns media is refused rather than leaving orphaned files behind.
        CREATE TABLE media (
            id         TEXT PRIMARY KEY,
            owner_id   INTEGER NOT NULL REFERENCES users (id),
            type       TEXT NOT NULL,
            width      INTEGER NOT NULL,
            height     INTEGER NOT NULL,
            size       INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        ) STRICT;
        -- Also keeps the foreign-key check on deleting a user from scanning the whole table.
        CREATE INDEX media_by_owner ON media (owner_id);

        CREATE TABLE sms_challenges (
            phone           TEXT PRIMARY KEY,
            code_hash       BLOB NOT NULL,
            sent_at         INTEGER NOT NULL,
            expires_at      INTEGER NOT NULL,
            failed_attempts INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        """
}
