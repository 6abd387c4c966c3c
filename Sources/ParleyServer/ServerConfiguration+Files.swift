// The limits of file uploads (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func fileOptions() -> [Option] {
        [
            number("max-file-bytes", \.maxFileBytes, 0...1 << 40, "largest file upload (`POST /v1/files`, any type, written to disk as it arrives; the per-user media quotas apply too)", exceeded: "413 `payload_too_large`, before any of the body is read when `Content-Length` tells, else as soon as the body passes it; connection closed, partial file removed"),
        ]
    }
}
