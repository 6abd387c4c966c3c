public import ParleyProtocol

/// An uploaded image's record; the bytes live in the media directory under `id`.
public struct StoredMedia: Sendable, Equatable {
    public var id: String
    public var ownerID: UserID
    public var type: MediaType
    /// A voice recording's length as its container records it (nil for images).
    public var durationMs: Int?
    public var width: Int
    public var height: Int
    public var size: Int
    public var createdAt: Int64

    public init(id: String, ownerID: UserID, type: ImageType, width: Int, height: Int, size: Int, createdAt: Int64) {
        self.init(id: id, ownerID: ownerID, type: .image(type), width: width, height: height, size: size, createdAt: createdAt)
    }

    /// `durationMs` for a voice recording; an image has none and a 0 × 0 voice has no pixels.
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

    /// The public description.
    public var info: MediaInfo {
        MediaInfo(id: id, url: "/v1/media/\(id)", type: type.mimeType, width: width, height: height, size: size)
    }
}
