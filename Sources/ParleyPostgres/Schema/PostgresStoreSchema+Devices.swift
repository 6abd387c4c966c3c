extension PostgresStoreSchema {
    /// Version 8: a session's device name and last address (SQLite's version 9).
    static let sessionDevices = """
        ALTER TABLE sessions ADD COLUMN device_name TEXT;
        ALTER TABLE sessions ADD COLUMN last_address TEXT;
        """
}
