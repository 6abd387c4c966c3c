/// A recorded voice note shown in a message bubble (docs/protocol.md, "Voice messages").
public struct VoiceAttachment: Codable, Sendable, Equatable {
    /// How many values a waveform has.
    public static let waveformLength = 64
    /// The largest waveform value (the loudest bar); the quietest is 0.
    public static let waveformMax = 31

    public var mediaId: String
    public var url: String
    /// `audio/webm` or `audio/ogg` (Opus inside), sniffed from the bytes.
    public var type: String
    /// The recording's length in milliseconds.
    public var durationMs: Int
    /// The loudness preview, `waveformLength` values of `0...waveformMax`, oldest first.
    public var waveform: [Int]

    public init(mediaId: String, url: String, type: String, durationMs: Int, waveform: [Int]) {
        self.mediaId = mediaId
        self.url = url
        self.type = type
        self.durationMs = durationMs
        self.waveform = waveform
    }
}
