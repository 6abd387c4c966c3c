public import ParleyProtocol

/// An upload's record; the bytes live in the media directory under `id`.
public struct StoredMedia: Sendable, Equatable {
    public var id: String
    public var ownerID: UserID
    /// What the bytes are, as sniffed: an image's `ImageType` raw value (`png`, as records
    /// always had), else a MIME type (`application/pdf`, `application/octet-stream`).
    public var type: String
    public var width: Int
    public var height: Int
    public var size: Int
    public var createdAt: Int64

    /// An image's record.
    public init(id: String, ownerID: UserID, type: ImageType, width: Int, height: Int, size: Int, createdAt: Int64) {
        self.init(id: id, ownerID: ownerID, type: type.rawValue, width: width, height: height, size: size, createdAt: createdAt)
    }

    /// A record of any file (`type` as described there; width and height 0 if not an image).
    public init(id: String, ownerID: UserID, type: String, width: Int, height: Int, size: Int, createdAt: Int64) {
        self.id = id
        self.ownerID = ownerID
        self.type = type
        self.width = width
        self.height = height
        self.size = size
        self.createdAt = createdAt
    }

    /// The image format, when the upload is one of the accepted images.
    public var imageType: ImageType? { ImageType(rawValue: type) }

    /// The MIME type the bytes were sniffed as.
    public var mimeType: String { imageType?.mimeType ?? type }

    /// A file name extension for the type (exports name files with it).
    public var fileExtension: String { imageType?.rawValue ?? FileSniffer.fileExtension(of: type) }

    /// The public description.
    public var info: MediaInfo {
        MediaInfo(id: id, url: "/v1/media/\(id)", type: mimeType, width: width, height: height, size: size)
    }
}
