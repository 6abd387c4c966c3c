/// Marks uploads as used (by a message or an avatar), so the sweep of unused uploads leaves
/// them alone; called inside the write that makes the use.
enum MediaReference {
    static let pathPrefix = "/v1/media/"

    /// The upload an avatar value points at, if it is one of ours (`/v1/media/<id>`).
    static func mediaID(ofAvatar avatar: String?) -> String? {
        guard let avatar, avatar.hasPrefix(pathPrefix) else { return nil }
        let id = String(avatar.dropFirst(pathPrefix.count))
        return id.isEmpty ? nil : id
    }

    /// Marks what `avatar` points at, if anything, as used and public: anyone may fetch an
    /// avatar (docs/protocol.md, "Media access").
    static func mark(avatar: String?, at time: Int64, writer: StoreWriter) throws {
        if let id = mediaID(ofAvatar: avatar) { try writer.markMediaPublic(id: id, at: time) }
    }
}
