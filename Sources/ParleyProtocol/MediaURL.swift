/// Parameters of `media.url`: the upload to link to.
public struct MediaURLParameters: Codable, Sendable, Equatable {
    public var mediaId: String

    public init(mediaId: String) {
        self.mediaId = mediaId
    }
}

/// A signed, short-lived link to an upload (`media.url`; docs/protocol.md, "Media access").
public struct SignedMediaURL: Codable, Sendable, Equatable {
    public var mediaId: String
    /// `/v1/media/<id>?exp=…&sig=…`, relative to the server; add `&name=` for a download name.
    public var url: String
    /// When the link stops working (milliseconds since the epoch); ask again before then.
    public var expiresAt: Int64

    public init(mediaId: String, url: String, expiresAt: Int64) {
        self.mediaId = mediaId
        self.url = url
        self.expiresAt = expiresAt
    }
}
