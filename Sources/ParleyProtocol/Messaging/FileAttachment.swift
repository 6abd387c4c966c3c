/// The file of a `file` message: an upload of any type with the name its sender gave it.
public struct FileAttachment: Codable, Sendable, Equatable {
    public var mediaId: String
    /// Where to fetch it: `/v1/media/<id>`; add `?name=` with the name to have the download
    /// saved under it.
    public var url: String
    /// The name the sender gave, made safe by the server (no slashes, quotes, control or
    /// bidirectional characters; at most 255 bytes).
    public var name: String
    /// Bytes.
    public var size: Int
    /// The MIME type the server sniffed from the bytes (never the one the client declared).
    public var type: String
    /// Pixel size, for an image sent as a file.
    public var width: Int?
    public var height: Int?

    public init(mediaId: String, url: String, name: String, size: Int, type: String, width: Int? = nil, height: Int? = nil) {
        self.mediaId = mediaId
        self.url = url
        self.name = name
        self.size = size
        self.type = type
        self.width = width
        self.height = height
    }
}
