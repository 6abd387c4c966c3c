extension SQLiteStoreSchema {
    /// Version 12: what the device list shows of a session: the name the client gave at
    /// sign-in (or one derived from its `User-Agent`) and the address it was last used from.
    /// Sessions older than this step have neither until their next use records an address.
    static let sessionDevices = """
        ALTER TABLE sessions ADD COLUMN device_name TEXT;
        ALTER TABLE sessions ADD COLUMN last_address TEXT;
        """
}
