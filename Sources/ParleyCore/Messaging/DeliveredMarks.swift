import ParleyProtocol
import ParleySync

/// Decides when a 1:1 sender hears that their messages were delivered, so that a burst to an
/// online recipient makes a couple of `conversation.receipt` events, not one per message,
/// while a conversation with one message now and then costs no timer at all.
///
/// The first receipt of a (conversation, recipient) is told at once. Another that comes
/// within `window` of the last one told waits, with any others, for one flush `window` later
/// that tells only the newest marker. A marker not newer than one told or waiting is
/// dropped: sends finish in any order after their commits, so an older marker can arrive
/// after a newer one. (The markers themselves are written in each send's own write.)
final class DeliveredMarks: Sendable {
    struct Key: Hashable, Sendable {
        let conversation: ConversationID
        let user: UserID
    }

    /// A marker to tell, and to whom.
    struct Mark: Sendable {
        let seq: Int64
        let notify: UserID
    }

    /// What `note` asks of its caller.
    enum Decision: Equatable {
        /// Tell this marker now.
        case tellNow
        /// It waits for a flush; start the flush (`startFlush`) unless one is coming.
        case deferred(startFlush: Bool)
        /// Nothing to tell: a newer marker was told or waits.
        case stale
    }

    private struct State {
        var waiting: [Key: Mark] = [:]
        var flushing = false
        /// The last marker told per key, and when. Entries older than `memory` are swept
        /// once the table grows past `limit`.
        var told: [Key: (seq: Int64, at: ContinuousClock.Instant)] = [:]
    }

    /// How close two receipts of one conversation may be before the second waits.
    let window: Duration
    /// How long a told marker is remembered (well past `window` and the gap between two
    /// sends' completions of one commit), and how many before the old ones are swept.
    private let memory: Duration
    private static let limit = 4096
    private let state = PThreadMutex(State())

    init(window: Duration = .milliseconds(100)) {
        self.window = window
        memory = max(.seconds(2), window * 4)
    }

    /// Notes that `user`'s delivered marker in `conversation` is now `seq`, for `notify`.
    func note(_ seq: Int64, in conversation: ConversationID, to user: UserID, notify: UserID,
              now: ContinuousClock.Instant = .now) -> Decision {
        state.withLock { state in
            let key = Key(conversation: conversation, user: user)
            let last = state.told[key]
            guard seq > max(state.waiting[key]?.seq ?? 0, last?.seq ?? 0) else { return .stale }
            if let last, now - last.at < window {
                state.waiting[key] = Mark(seq: seq, notify: notify)
                guard !state.flushing else { return .deferred(startFlush: false) }
                state.flushing = true
                return .deferred(startFlush: true)
            }
            if state.told.count > Self.limit {
                state.told = state.told.filter { now - $0.value.at < memory }
            }
            state.told[key] = (seq, now)
            return .tellNow
        }
    }

    /// Whether `user`'s delivered marker in `conversation` is known to be at `seq` or past it
    /// (told or waiting to be); false when it is not remembered.
    func covers(_ seq: Int64, in conversation: ConversationID, to user: UserID) -> Bool {
        let key = Key(conversation: conversation, user: user)
        return state.withLock { state in max(state.waiting[key]?.seq ?? 0, state.told[key]?.seq ?? 0) >= seq }
    }

    /// The flush: what waits, taken and remembered as told; empty (and the flush over) when
    /// nothing does.
    func take(now: ContinuousClock.Instant = .now) -> [Key: Mark] {
        state.withLock { state in
            let taken = state.waiting
            state.waiting = [:]
            if taken.isEmpty { state.flushing = false }
            for (key, mark) in taken { state.told[key] = (mark.seq, now) }
            return taken
        }
    }
}
