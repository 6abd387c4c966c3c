/// The image formats Parley accepts.
public enum ImageType: String, Sendable, Equatable, CaseIterable {
    case png, jpeg, gif, webp

    /// The MIME type.
    public var mimeType: String { "image/\(rawValue)" }
}
