/// The limits of this server that clients need before they send (`GET /v1/limits`): each is
/// the value of a server setting (docs/operations.md), so a client reads them rather than
/// assume the defaults.
public struct ServerLimits: Codable, Sendable, Equatable {
    /// The longest voice recording, in seconds (`--max-voice-seconds`).
    public var maxVoiceSeconds: Int
    /// The largest voice recording, in bytes (`--max-voice-bytes`).
    public var maxVoiceBytes: Int
    /// The largest file upload, in bytes (`--max-file-bytes`).
    public var maxFileBytes: Int
    /// The largest image upload, in bytes (`--max-media-bytes`).
    public var maxImageBytes: Int
    /// The longest text message in characters (Unicode scalars) and UTF-8 bytes
    /// (`--max-text-length`, `--max-text-bytes`).
    public var maxTextCharacters: Int
    public var maxTextBytes: Int
    /// How long after sending its sender may edit a text message, in seconds (`--edit-window`).
    public var editWindowSeconds: Int
    /// How long after sending its sender may recall a message, in seconds (`--recall-window`).
    public var recallWindowSeconds: Int

    public init(maxVoiceSeconds: Int, maxVoiceBytes: Int, maxFileBytes: Int, maxImageBytes: Int, maxTextCharacters: Int,
                maxTextBytes: Int, editWindowSeconds: Int, recallWindowSeconds: Int) {
        self.maxVoiceSeconds = maxVoiceSeconds
        self.maxVoiceBytes = maxVoiceBytes
        self.maxFileBytes = maxFileBytes
        self.maxImageBytes = maxImageBytes
        self.maxTextCharacters = maxTextCharacters
        self.maxTextBytes = maxTextBytes
        self.editWindowSeconds = editWindowSeconds
        self.recallWindowSeconds = recallWindowSeconds
    }
}
