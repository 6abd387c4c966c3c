extension PostgresStoreSchema {
    /// Version 15: voice messages (SQLite's version 16): `messages.kind` may be `voice`, and
    /// `media.duration_ms` keeps a recording's length as its container records it (NULL for
    /// images), read at upload so a send can check the client's stated length against it.
    static let voiceMessages = """
        ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
        ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN ('text', 'image', 'system', 'voice'));
        ALTER TABLE media ADD COLUMN duration_ms INTEGER;
        """
}
