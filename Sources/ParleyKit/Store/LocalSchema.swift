import ParleySQL

/// The client database's schema. Wire objects are kept as their JSON (the protocol's own
/// Codable types), with the columns needed to find and order them beside it: the cache only
/// ever shows what the server said, so a second model of every object would only drift.
enum LocalSchema {
    static let migrator = SQLiteMigrator([
        SQLiteMigration(version: 1, sql: """
            -- The signed-in session and small settings: token, account id, server.
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE account (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
            -- Profiles of everyone the user has seen (senders, friends, peers, members).
            CREATE TABLE users (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
            -- The sessions list (1:1, groups, and rooms the user is in).
            CREATE TABLE conversations (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                last_activity INTEGER NOT NULL,
                json TEXT NOT NULL
            );
            -- Recent messages; (conversation, seq) is how the protocol names a message once.
            CREATE TABLE messages (
                conversation_id INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                json TEXT NOT NULL,
                PRIMARY KEY (conversation_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE friends (user_id INTEGER PRIMARY KEY, since INTEGER NOT NULL, json TEXT NOT NULL);
            CREATE TABLE friend_requests (id TEXT PRIMARY KEY, incoming INTEGER NOT NULL, created_at INTEGER NOT NULL, json TEXT NOT NULL);
            CREATE TABLE groups_info (conversation_id INTEGER PRIMARY KEY, json TEXT NOT NULL);
            -- Rooms the user is in: entered again by name after every reconnect.
            CREATE TABLE rooms (conversation_id INTEGER PRIMARY KEY, name TEXT NOT NULL, json TEXT NOT NULL);
            -- Messages waiting for the server's acknowledgement, in the order they were written.
            CREATE TABLE outbox (
                position INTEGER PRIMARY KEY AUTOINCREMENT,
                client_id TEXT NOT NULL UNIQUE,
                conversation_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                text TEXT,
                media_id TEXT,
                created_at INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                failure TEXT
            );
            -- Who signed in on this device before (seed 000's login page shows the last
            -- user's avatar); kept across logouts.
            CREATE TABLE known_logins (username TEXT PRIMARY KEY COLLATE NOCASE, avatar TEXT, at INTEGER NOT NULL);
            """),
        SQLiteMigration(version: 2, sql: """
            -- Message actions made offline (edits, reactions, recalls), in the order they were
            -- made: sent with their client ids once online, so the server stores each once.
            CREATE TABLE action_outbox (
                position INTEGER PRIMARY KEY AUTOINCREMENT,
                client_id TEXT NOT NULL UNIQUE,
                conversation_id INTEGER NOT NULL,
                json TEXT NOT NULL
            );
            """),
    ])

    /// Tables that belong to the signed-in account and go with it at logout.
    static let accountTables = ["meta", "account", "users", "conversations", "messages", "friends",
                                "friend_requests", "groups_info", "rooms", "outbox", "action_outbox"]
}
