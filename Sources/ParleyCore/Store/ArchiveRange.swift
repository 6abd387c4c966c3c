public import ParleyProtocol

/// A place in the message archive. The archive is every message but system notices, in
/// order of creation time, then server id (so messages of different conversations
/// interleave as they were written, and two of the same millisecond still have an order).
public struct ArchivePosition: Sendable, Hashable, Comparable {
    public var createdAt: Int64
    public var id: Int64

    public init(createdAt: Int64, id: Int64) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The position of a stored message; nil if its id is not a number (never for a store's).
    public init?(_ message: Message) {
        guard let id = Int64(message.id) else { return nil }
        self.init(createdAt: message.createdAt, id: id)
    }

    public static func < (a: ArchivePosition, b: ArchivePosition) -> Bool {
        (a.createdAt, a.id) < (b.createdAt, b.id)
    }

    static let first = ArchivePosition(createdAt: .min, id: .min)
    static let last = ArchivePosition(createdAt: .max, id: .max)
}

/// Which part of a conversation's archive to read: creation times within `start...end`
/// (milliseconds, both inclusive), positions strictly between `after` and `before`.
public struct ArchiveRange: Sendable, Equatable {
    public var start: Int64?
    public var end: Int64?
    public var after: ArchivePosition?
    public var before: ArchivePosition?
    /// Whether a limited read keeps the newest messages of the range rather than the oldest.
    public var newest: Bool

    public init(start: Int64? = nil, end: Int64? = nil, after: ArchivePosition? = nil, before: ArchivePosition? = nil, newest: Bool = false) {
        self.start = start
        self.end = end
        self.after = after
        self.before = before
        self.newest = newest
    }

    /// The bounds as the stores bind them: everything when not given.
    public var bounds: (start: Int64, end: Int64, after: ArchivePosition, before: ArchivePosition) {
        (start ?? .min, end ?? .max, after ?? .first, before ?? .last)
    }
}

extension MessagingReader {
    /// Up to `limit` messages of the archive of all of `conversations` in `range`, oldest
    /// first: the oldest of the range, or with `range.newest` the newest. Each conversation
    /// is read on its own index range (at most `limit` rows each) and the results merged,
    /// so the work is bounded by conversations × limit however large the archive is.
    public func archivedMessages(in conversations: [ConversationID], _ range: ArchiveRange, limit: Int) throws -> [Message] {
        guard limit > 0 else { return [] }
        var merged: [(ArchivePosition, Message)] = []
        for conversation in conversations {
            for message in try archivedMessages(in: conversation, range, limit: limit) {
                if let position = ArchivePosition(message) { merged.append((position, message)) }
            }
        }
        merged.sort { $0.0 < $1.0 }
        let kept = range.newest ? merged.suffix(limit) : merged.prefix(limit)
        return kept.map(\.1)
    }

    /// How many messages of the archive of `conversations` were created within
    /// `start...end` (nil: unbounded).
    public func archivedMessageCount(in conversations: [ConversationID], start: Int64?, end: Int64?) throws -> Int {
        try conversations.reduce(0) { $0 + (try archivedMessageCount(in: $1, start: start, end: end)) }
    }
}
