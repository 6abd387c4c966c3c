extension SQLiteStoreSchema {
    /// Version 19: moderation (docs/operations.md, "Administration").
    ///
    /// - `admins`: who holds the admin role; granted only on the server's machine
    ///   (`parley admin grant`), never over the network.
    /// - `suspensions`: one row per suspended account (an ended one stays until lifted or
    ///   replaced; readers compare `until_at` with the time).
    /// - `reports`: what users reported, with the reported message's JSON as it was
    ///   (`snapshot`), so a later recall does not hide it from moderators. No foreign keys:
    ///   a report outlives the message, the conversation and either account.
    /// - `audit_log`: every administrator's action. Triggers refuse to change or remove a row,
    ///   so the log only grows, whatever runs SQL against the file through the server.
    static let moderation = """
        CREATE TABLE admins (
            user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            granted_at INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE suspensions (
            user_id  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            reason   TEXT NOT NULL,
            until_at INTEGER,
            since_at INTEGER NOT NULL,
            by_id    INTEGER
        ) STRICT;
        CREATE TABLE reports (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            reporter_id     INTEGER,
            target          TEXT NOT NULL CHECK (target IN ('message', 'user', 'conversation')),
            conversation_id INTEGER,
            message_id      TEXT,
            reported_id     INTEGER,
            reason          TEXT NOT NULL,
            note            TEXT,
            snapshot        TEXT,
            status          TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
            assignee_id     INTEGER,
            outcome         TEXT,
            resolved_by     INTEGER,
            resolved_at     INTEGER,
            created_at      INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX reports_status ON reports (status, id);
        CREATE INDEX reports_reported ON reports (reported_id, id);
        CREATE INDEX reports_reporter ON reports (reporter_id);
        CREATE TABLE audit_log (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            admin_id   INTEGER,
            action     TEXT NOT NULL,
            target     TEXT NOT NULL,
            reason     TEXT,
            created_at INTEGER NOT NULL
        ) STRICT;
        CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        """
}
