// The limits of file uploads (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func fileOptions() -> [Option] {
        [
            number("max-file-bytes", \.maxFileBytes, 0...1 << 40, "largest file upload (`POST /v1/files`, any type, written to disk as it arrives; the per-user media quotas apply too)", exceeded: "413 `payload_too_large`, before any of the body is read when `Content-Length` tells, else as soon as the body passes it; connection closed, partial file removed"),
            number("upload-expiry-seconds", \.uploadExpirySeconds, 1...30 * 86_400, "seconds an unfinished resumable upload (`/v1/file-uploads`) is kept after its last piece arrived (swept every ten minutes)", exceeded: "the upload and its bytes are removed; its id answers 404 `not_found` and the client starts again"),
            number("max-open-uploads", \.maxOpenUploadsPerUser, 1...1_000, "unfinished resumable uploads one user may hold at once (each may take up to --max-file-bytes on disk)", exceeded: "`POST /v1/file-uploads` is answered 429 `quota_exceeded`; finish or delete one"),
        ]
    }
}
