// Access to uploads (docs/protocol.md, "Media access").
extension Op {
    /// A signed, short-lived link to an upload the caller may see: their own, one sent to a
    /// conversation they read, or an avatar. `forbidden` otherwise, `not_found` for no such
    /// upload.
    public enum MediaURL: APIOperation {
        public typealias Parameters = MediaURLParameters
        public typealias Result = SignedMediaURL
        public static let name = "media.url"
    }
}
