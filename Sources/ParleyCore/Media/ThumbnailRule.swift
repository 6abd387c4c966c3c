/// Which uploads get a server-made thumbnail, and its size (docs/protocol.md, "Thumbnails"):
/// JPEG and PNG images larger than `longSide` on their long side. GIF and WebP images, and
/// small ones, are their own thumbnail (the thumbnail link serves the original). The
/// server's thumbnail maker and the message's `thumbnail` field use this one rule.
public enum ThumbnailRule {
    /// Pixels on a thumbnail's long side.
    public static let longSide = 320

    /// Whether `media` gets a thumbnail of its own.
    public static func wanted(_ media: StoredMedia) -> Bool {
        guard let type = media.imageType, type == .jpeg || type == .png else { return false }
        return max(media.width, media.height) > longSide
    }

    /// The thumbnail's path (`/v1/media/<id>/thumbnail`) for an image that gets one.
    public static func path(for media: StoredMedia) -> String? {
        wanted(media) ? MediaReference.pathPrefix + media.id + "/thumbnail" : nil
    }

    /// The size of the thumbnail of a `width` × `height` image: `longSide` on the long side,
    /// the aspect kept, at least one pixel each way.
    public static func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > longSide, width > 0, height > 0 else { return (width, height) }
        let scaled = { (side: Int) in max(1, (side * longSide + long / 2) / long) }
        return (scaled(width), scaled(height))
    }
}
