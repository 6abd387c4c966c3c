/// Every upload limit, named once; the server fills it from its configuration.
public struct MediaRules: Sendable, Equatable {
    /// Largest image upload, in bytes.
    public var maxBytes = 5 * 1024 * 1024
    /// Largest voice recording, in bytes (at most `maxBytes` applies as well).
    public var maxVoiceBytes = 2 * 1024 * 1024
    /// Longest voice recording, in milliseconds, as its container records it.
    public var maxVoiceMillis = 120_000
    /// Largest file upload (`POST /v1/files`, any type), in bytes.
    public var maxFileBytes = 100 * 1024 * 1024
    /// Most pixels (width × height, by the header) of an image upload: a small file can
    /// claim a canvas that would take gigabytes to decode, in the server's thumbnail maker
    /// and in every browser that shows it.
    public var maxImagePixels = 50_000_000
    /// Bytes one user may upload in any 24 hours.
    public var bytesPerDay: Int64 = 200 * 1024 * 1024
    /// Bytes of uploads one user may hold at once.
    public var bytesHeld: Int64 = 2 * 1024 * 1024 * 1024
    /// Uploads one user may make in any minute.
    public var uploadsPerMinute = 30
    /// Milliseconds an upload may stay unused (in no message, no avatar) before it is
    /// removed; 0 keeps them all.
    public var orphanGraceMillis: Int64 = 24 * 3_600_000

    public init() {}
}
