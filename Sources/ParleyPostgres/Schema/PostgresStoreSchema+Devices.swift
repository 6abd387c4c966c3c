extension PostgresStoreSchema {
    /// Version 11: a session's device name and last address (SQLite's version 12).
    static let sessionDevices = """
        ALTER TABLE sessions ADD COLUMN device_name TEXT;
        ALTER TABLE sessions ADD COLUMN last_address TEXT;
        """
}
