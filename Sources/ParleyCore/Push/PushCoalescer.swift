public import ParleyProtocol
import ParleySync

/// The push notification rules that need memory: messages for one user in one conversation
/// that arrive within the coalescing window become one notification (carrying how many they
/// were, and the newest), and each user gets at most `perUserPerMinute` notifications in
/// any minute; those over it are dropped (the next one that fits carries the counts).
/// Whether a user is away, and mutes, are decided by the caller; this keeps what is waiting.
public final class PushCoalescer: Sendable {
    /// What waits to be sent for one user and conversation.
    public struct Pending: Sendable, Equatable {
        public let user: UserID
        public let conversation: ConversationID
        /// The newest message.
        public var newest: Message
        /// Messages coalesced into this notification.
        public var count: Int
        /// Whether any of them mentions the user (`Message.mentions`).
        public var mentioned: Bool
    }

    /// What `take` decided.
    public enum Outcome: Sendable, Equatable {
        case send(Pending)
        /// Over the user's limit per minute.
        case dropped(Pending)
        /// The user muted the conversation (and nothing of it mentions them, or the mute
        /// leaves no room for mentions); counts against no limit.
        case muted
        /// Nothing waits (already taken, or the user came back).
        case none
    }

    private struct Key: Hashable {
        let user: UserID
        let conversation: ConversationID
    }

    private let limiter: SlidingWindowLimiter
    private let maxPending: Int
    private let pending = PThreadMutex<[Key: Pending]>([:])

    /// `perUserPerMinute` notifications per user in any minute; at most `maxPending`
    /// notifications wait at once (more are refused by `add`, so memory stays bounded).
    public init(perUserPerMinute: Int, maxPending: Int = 100_000) {
        limiter = SlidingWindowLimiter(limit: max(1, perUserPerMinute), windowSeconds: 60)
        self.maxPending = maxPending
    }

    /// What `add` did with a message.
    public enum Added: Sendable, Equatable {
        /// The first of its conversation for the user: the caller takes it after the window.
        case opened
        /// Joined a notification already waiting.
        case coalesced
        /// Too many notifications wait already.
        case refused
    }

    /// Counts `message` for `user`.
    public func add(_ message: Message, for user: UserID) -> Added {
        let key = Key(user: user, conversation: message.conversationId)
        let mentioned = message.mentions(user)
        return pending.withLock { table in
            if var waiting = table[key] {
                if message.seq >= waiting.newest.seq { waiting.newest = message }
                waiting.count += 1
                waiting.mentioned = waiting.mentioned || mentioned
                table[key] = waiting
                return .coalesced
            }
            guard table.count < maxPending else { return .refused }
            table[key] = Pending(user: user, conversation: message.conversationId, newest: message, count: 1, mentioned: mentioned)
            return .opened
        }
    }

    /// Takes what waits for `user` in `conversation`: to send, unless `mute` (the user's
    /// mute of the conversation, if any) holds it back or the user is over the limit at `now`.
    public func take(_ user: UserID, _ conversation: ConversationID, now: Int64, allowedBy mute: ConversationMute? = nil) -> Outcome {
        guard let waiting = pending.withLock({ $0.removeValue(forKey: Key(user: user, conversation: conversation)) }) else { return .none }
        guard Self.allows(mute, mentioned: waiting.mentioned, now: now) else { return .muted }
        return limiter.attempt(user.description, now: now) == nil ? .send(waiting) : .dropped(waiting)
    }

    /// Counts a notification that is not coalesced (a friend request) against `user`'s
    /// limit at `now`; false when the user is over it.
    public func admit(_ user: UserID, now: Int64) -> Bool {
        limiter.attempt(user.description, now: now) == nil
    }

    /// Forgets what waits for `user` in `conversation` (they came back, or have no targets).
    public func discard(_ user: UserID, _ conversation: ConversationID) {
        _ = pending.withLock { $0.removeValue(forKey: Key(user: user, conversation: conversation)) }
    }

    /// Whether `mute` (the user's, if any) lets a notification through at `now`: no mute or
    /// an expired one, or a mention when the mute lets mentions through.
    public static func allows(_ mute: ConversationMute?, mentioned: Bool, now: Int64) -> Bool {
        guard let mute, mute.isActive(at: now) else { return true }
        return mute.mentionsOnly && mentioned
    }
}
