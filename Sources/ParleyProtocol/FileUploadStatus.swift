/// Where a resumable upload stands (`docs/protocol.md`, "Resumable uploads"): the answer of
/// its creation, of `GET`/`HEAD` and of each `PATCH`.
public struct FileUploadStatus: Codable, Sendable, Equatable {
    /// The upload's id, for `/v1/file-uploads/<id>`.
    public var id: String
    /// Bytes the server holds: the next `PATCH` starts here.
    public var offset: Int
    /// The whole file's length.
    public var size: Int
    /// When the server drops the upload if no piece arrives before (ms since the epoch).
    public var expiresAt: Int64
    /// Set once every byte arrived and the file became an upload like `POST /v1/files`'s.
    public var media: MediaInfo?

    public init(id: String, offset: Int, size: Int, expiresAt: Int64, media: MediaInfo? = nil) {
        self.id = id
        self.offset = offset
        self.size = size
        self.expiresAt = expiresAt
        self.media = media
    }

    /// Whether every byte arrived.
    public var isComplete: Bool { offset >= size }
}
