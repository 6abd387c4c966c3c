/// An uploaded image or voice recording (`POST /v1/media`).
public struct MediaInfo: Codable, Sendable, Equatable {
    /// The server-chosen id.
    public var id: String
    /// Where to fetch it: `/v1/media/<id>`.
    public var url: String
    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp`, `audio/webm` or `audio/ogg`,
    /// sniffed from the bytes.
    public var type: String
    /// Pixel size read from the image header (0 for a recording).
    public var width: Int
    public var height: Int
    /// Bytes.
    public var size: Int

    public init(id: String, url: String, type: String, width: Int, height: Int, size: Int) {
        self.id = id
        self.url = url
        self.type = type
        self.width = width
        self.height = height
        self.size = size
    }
}
