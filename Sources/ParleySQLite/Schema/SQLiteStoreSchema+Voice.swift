extension SQLiteStoreSchema {
    /// Version 20: voice messages (docs/protocol.md, "Voice messages"); `messages.kind` may
    /// be `voice` since version 18, and a voice message's recording, length and waveform live
    /// in `body` like an image.
    ///
    /// `media.duration_ms`: a recording's length as its container records it, read when it
    /// is uploaded, so a send can hold the client's stated length against it without reading
    /// the file again; NULL for anything else.
    static let voiceMessages = """
        ALTER TABLE media ADD COLUMN duration_ms INTEGER;
        """
}
