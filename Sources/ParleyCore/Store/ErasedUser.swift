public import ParleyProtocol

/// What erasing a user (`StoreWriter.eraseUser`) removed that needs acting on outside the
/// store: the sessions whose connections to close, the media files to delete, and the
/// friends to tell.
public struct ErasedUser: Sendable, Equatable {
    public var sessionIDs: [String]
    public var mediaIDs: [String]
    public var friends: [UserID]

    public init(sessionIDs: [String], mediaIDs: [String], friends: [UserID]) {
        self.sessionIDs = sessionIDs
        self.mediaIDs = mediaIDs
        self.friends = friends
    }
}
