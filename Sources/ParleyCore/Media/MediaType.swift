/// What an upload is, sniffed from the bytes: an accepted image, a voice recording, or any
/// other file by its MIME type (`POST /v1/files`).
public enum MediaType: Sendable, Equatable {
    case image(ImageType)
    case audio(AudioType)
    /// Any other file; the MIME type the file sniffer found (`application/octet-stream` if none).
    case file(mimeType: String)

    /// The name kept in the store's `type` column: an image's or recording's short name
    /// (`png`, …, `webm`, `ogg`: no two alike, as records always had), else the MIME type
    /// (which has a `/`, so it never reads back as one of the others).
    public var rawValue: String {
        switch self {
        case .image(let type): type.rawValue
        case .audio(let type): type.rawValue
        case .file(let mimeType): mimeType
        }
    }

    /// The type named `rawValue` in the store; nil for an empty or unknown short name.
    public init?(rawValue: String) {
        if let image = ImageType(rawValue: rawValue) {
            self = .image(image)
        } else if let audio = AudioType(rawValue: rawValue) {
            self = .audio(audio)
        } else if rawValue.contains("/") {
            self = .file(mimeType: rawValue)
        } else {
            return nil
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .image(let type): type.mimeType
        case .audio(let type): type.mimeType
        case .file(let mimeType): mimeType
        }
    }

    /// The image format, when the upload is one of the accepted images.
    public var imageType: ImageType? {
        if case .image(let type) = self { type } else { nil }
    }
}
