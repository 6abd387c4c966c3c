/// The voice recording containers Parley accepts, both with Opus inside (what browsers'
/// `MediaRecorder` writes).
public enum AudioType: String, Sendable, Equatable, CaseIterable {
    case webm, ogg

    /// The MIME type.
    public var mimeType: String { "audio/\(rawValue)" }
}
