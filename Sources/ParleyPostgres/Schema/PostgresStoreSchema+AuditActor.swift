extension PostgresStoreSchema {
    /// Version 22: who acted, for an audit row without an administrator's account (SQLite's
    /// version 24): `audit_log.actor`, e.g. `local admin (uid 1000)`; NULL otherwise.
    static let auditActor = """
        ALTER TABLE audit_log ADD COLUMN actor TEXT;
        """
}
