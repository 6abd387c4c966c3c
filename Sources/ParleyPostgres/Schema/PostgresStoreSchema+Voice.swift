extension PostgresStoreSchema {
    /// Version 19: voice messages (SQLite's version 20); `messages.kind` may be `voice` since
    /// version 17. `media.duration_ms` keeps a recording's length as its container records it
    /// (NULL for anything else), read at upload so a send can check the client's stated length
    /// against it.
    static let voiceMessages = """
        ALTER TABLE media ADD COLUMN duration_ms INTEGER;
        """
}
