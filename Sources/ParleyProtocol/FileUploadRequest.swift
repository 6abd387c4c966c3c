/// The body of `POST /v1/file-uploads`: a resumable upload of a file of `size` bytes is
/// about to begin (`docs/protocol.md`, "Resumable uploads").
public struct FileUploadRequest: Codable, Sendable, Equatable {
    /// The whole file's length in bytes (0 … `--max-file-bytes`).
    public var size: Int
    /// The file's name on the sender's side, for the sender's own records (at most 1,024
    /// bytes); the message that carries the file names it again.
    public var name: String?

    public init(size: Int, name: String? = nil) {
        self.size = size
        self.name = name
    }
}
