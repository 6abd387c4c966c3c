import ParleyCore

// The limits of file uploads (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func fileOptions() -> [Option] {
        [
            number("max-file-bytes", \.maxFileBytes, 0...1 << 40, "largest file upload (`POST /v1/files`, any type, written to disk as it arrives; the per-user media quotas apply too)", exceeded: "413 `payload_too_large`, before any of the body is read when `Content-Length` tells, else as soon as the body passes it; connection closed, partial file removed"),
            number("media-url-seconds", \.mediaURLSeconds, 1...604_800, "seconds a signed media link (`media.url`, `GET /v1/media/<id>?exp=…&sig=…`) stays valid, at least (rounded up to a quarter of it, so links minted close together are equal and caches keep working)", exceeded: "403 `url_expired`: the client asks `media.url` again"),
            number("max-image-pixels", \.maxImagePixels, 1_000...1_000_000_000, "most pixels (width × height, read from the header) of an image upload (`POST /v1/media`) and of an image a thumbnail is made of; decoding takes about 3 bytes a pixel (a PNG is decoded whole, a JPEG at the smallest scale that covers the thumbnail)", exceeded: "413 `payload_too_large` on upload; a thumbnail request (`GET /v1/media/<id>/thumbnail`) of a larger image sent as a file gets 413 `payload_too_large`"),
            number("xmpp-media-url-seconds", \.xmppMediaURLSeconds, 60...31_536_000, "seconds the signed media links sent to Jabber clients (message bodies, out-of-band URLs, upload slots) stay valid, at least; a Jabber client fetches the file when the message arrives, and history fetched later gets fresh links", exceeded: "403 `url_expired`"),
            number("upload-expiry-seconds", \.uploadExpirySeconds, 1...30 * 86_400, "seconds an unfinished resumable upload (`/v1/file-uploads`) is kept after its last piece arrived (swept every ten minutes)", exceeded: "the upload and its bytes are removed; its id answers 404 `not_found` and the client starts again"),
            number("max-open-uploads", \.maxOpenUploadsPerUser, 1...1_000, "unfinished resumable uploads one user may hold at once (each may take up to --max-file-bytes on disk)", exceeded: "`POST /v1/file-uploads` is answered 429 `quota_exceeded`; finish or delete one"),
        ]
    }

    /// The upload limits of `MediaRules`.
    var mediaRules: MediaRules {
        var rules = MediaRules()
        rules.maxBytes = maxMediaBytes
        rules.maxFileBytes = maxFileBytes
        rules.maxImagePixels = maxImagePixels
        rules.bytesPerDay = Int64(mediaQuotaBytesPerDay)
        rules.bytesHeld = Int64(mediaQuotaBytes)
        rules.uploadsPerMinute = mediaUploadsPerMinute
        rules.orphanGraceMillis = Int64(orphanMediaHours) * 3_600_000
        applyVoiceRules(to: &rules)
        return rules
    }
}
