/// How much a user's uploads take: what they hold, and what they uploaded in a recent window.
public struct MediaUsage: Sendable, Equatable {
    /// Bytes of every upload the user still has.
    public var heldBytes: Int64
    /// Bytes uploaded at or after the window's start.
    public var recentBytes: Int64
    /// When the oldest upload of the window was made (nil when there is none).
    public var oldestRecentAt: Int64?

    public init(heldBytes: Int64, recentBytes: Int64, oldestRecentAt: Int64?) {
        self.heldBytes = heldBytes
        self.recentBytes = recentBytes
        self.oldestRecentAt = oldestRecentAt
    }
}
