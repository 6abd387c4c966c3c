public import ParleyProtocol

/// An upload's record; the bytes live in the media directory under `id`.
public struct StoredMedia: Sendable, Equatable {
    public var id: String
    public var ownerID: UserID
    /// What the bytes are, as sniffed.
    public var type: MediaType
    /// A voice recording's length as its container records it (nil for anything else).
    public var durationMs: Int?
    public var width: Int
    public var height: Int
    public var size: Int
    public var createdAt: Int64

    /// An image's record.
    public init(id: String, ownerID: UserID, type: ImageType, width: Int, height: Int, size: Int, createdAt: Int64) {
        self.init(id: id, ownerID: ownerID, type: .image(type), width: width, height: height, size: size, createdAt: createdAt)
    }

    /// `durationMs` for a voice recording; width and height are 0 for anything but an image.
    public init(id: String, ownerID: UserID, type: MediaType, durationMs: Int? = nil, width: Int, height: Int, size: Int,
                createdAt: Int64) {
        self.durationMs = durationMs
        self.id = id
        self.ownerID = ownerID
        self.type = type
        self.width = width
        self.height = height
        self.size = size
        self.createdAt = createdAt
    }

    /// The image format, when the upload is one of the accepted images.
    public var imageType: ImageType? { type.imageType }

    /// The MIME type the bytes were sniffed as.
    public var mimeType: String { type.mimeType }

    /// A file name extension for the type (exports name files with it).
    public var fileExtension: String {
        switch type {
        case .image(let image): image.rawValue
        case .audio(let audio): audio.rawValue
        case .file(let mimeType): FileSniffer.fileExtension(of: mimeType)
        }
    }

    /// The public description.
    public var info: MediaInfo {
        MediaInfo(id: id, url: "/v1/media/\(id)", type: mimeType, width: width, height: height, size: size)
    }
}
