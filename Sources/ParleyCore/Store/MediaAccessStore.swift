public import ParleyProtocol

/// Who may see an upload besides its owner (part of `StoreReader`; docs/protocol.md,
/// "Media access").
public protocol MediaAccessReader {
    /// Whether the upload is public (an avatar uses it) and the conversations messages
    /// carrying it were sent to; nothing for an unknown id.
    func mediaGrants(id: String) throws -> MediaGrants
}

/// Recording uses of uploads (part of `StoreWriter`), each inside the write that makes the use.
public protocol MediaAccessWriter: MediaAccessReader {
    /// A message in `conversation` carries the upload: its members may see it. Marks the
    /// upload used, as `markMediaReferenced` does.
    func linkMedia(id: String, to conversation: ConversationID, at time: Int64) throws
    /// An avatar uses the upload: anyone may see it. Marks the upload used.
    func markMediaPublic(id: String, at time: Int64) throws
}

/// What `MediaAccessReader.mediaGrants` finds.
public struct MediaGrants: Sendable, Equatable {
    /// An avatar (a user's or a group's) uses it, now or once.
    public var isPublic: Bool
    /// The conversations it was sent to, in no particular order.
    public var conversations: [ConversationID]

    public init(isPublic: Bool, conversations: [ConversationID]) {
        self.isPublic = isPublic
        self.conversations = conversations
    }
}
