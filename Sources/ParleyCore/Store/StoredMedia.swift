public import ParleyProtocol

/// An uploaded image's record; the bytes live in the media directory under `id`.
public struct StoredMedia: Sendable, Equatable {
    public var id: String
    public var ownerID: UserID
    public var type: ImageType
    public var width: Int
    public var height: Int
    public var size: Int
    public var createdAt: Int64

    public init(id: String, ownerID: UserID, type: ImageType, width: Int, height: Int, size: Int, createdAt: Int64) {
        self.id = id
        self.ownerID = ownerID
        self.type = type
        self.width = width
        self.height = height
        self.size = size
        self.createdAt = createdAt
    }

    /// The public description.
    public var info: MediaInfo {
        MediaInfo(id: id, url: "/v1/media/\(id)", type: type.mimeType, width: width, height: height, size: size)
    }
}
