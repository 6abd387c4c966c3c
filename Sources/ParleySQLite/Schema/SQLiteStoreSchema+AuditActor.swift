extension SQLiteStoreSchema {
    /// Version 24: who acted, for an audit row without an administrator's account
    /// (`audit_log.actor`, e.g. `local admin (uid 1000)` for the server's local admin
    /// socket and `parley admin`); NULL for the rows of the admin API, which name
    /// `admin_id`, and for rows written before this step.
    static let auditActor = """
        ALTER TABLE audit_log ADD COLUMN actor TEXT;
        """
}
