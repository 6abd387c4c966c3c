/// What an upload is: an image or a voice recording, each sniffed from the bytes.
public enum MediaType: Sendable, Equatable {
    case image(ImageType)
    case audio(AudioType)

    /// The name kept in the store's `type` column (`png`, …, `webm`, `ogg`: no two alike).
    public var rawValue: String {
        switch self {
        case .image(let type): type.rawValue
        case .audio(let type): type.rawValue
        }
    }

    /// The type named `rawValue` in the store.
    public init?(rawValue: String) {
        if let image = ImageType(rawValue: rawValue) {
            self = .image(image)
        } else if let audio = AudioType(rawValue: rawValue) {
            self = .audio(audio)
        } else {
            return nil
        }
    }

    /// The MIME type.
    public var mimeType: String {
        switch self {
        case .image(let type): type.mimeType
        case .audio(let type): type.mimeType
        }
    }
}
