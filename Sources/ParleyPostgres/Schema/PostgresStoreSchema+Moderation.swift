extension PostgresStoreSchema {
    /// Version 18: moderation (SQLite's version 19, which says what each table is for).
    static let moderation = """
        CREATE TABLE admins (
            user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            granted_at BIGINT NOT NULL
        );
        CREATE TABLE suspensions (
            user_id  BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            reason   TEXT NOT NULL,
            until_at BIGINT,
            since_at BIGINT NOT NULL,
            by_id    BIGINT
        );
        CREATE TABLE reports (
            id              BIGSERIAL PRIMARY KEY,
            reporter_id     BIGINT,
            target          TEXT NOT NULL CHECK (target IN ('message', 'user', 'conversation')),
            conversation_id BIGINT,
            message_id      TEXT,
            reported_id     BIGINT,
            reason          TEXT NOT NULL,
            note            TEXT,
            snapshot        TEXT,
            status          TEXT NOT NULL CHECK (status IN ('open', 'resolved')),
            assignee_id     BIGINT,
            outcome         TEXT,
            resolved_by     BIGINT,
            resolved_at     BIGINT,
            created_at      BIGINT NOT NULL
        );
        CREATE INDEX reports_status ON reports (status, id);
        CREATE INDEX reports_reported ON reports (reported_id, id);
        CREATE INDEX reports_reporter ON reports (reporter_id);
        CREATE TABLE audit_log (
            id         BIGSERIAL PRIMARY KEY,
            admin_id   BIGINT,
            action     TEXT NOT NULL,
            target     TEXT NOT NULL,
            reason     TEXT,
            created_at BIGINT NOT NULL
        );
        CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
        CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
            FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
        """
}
