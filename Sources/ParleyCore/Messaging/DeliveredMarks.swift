import ParleyProtocol
import ParleySync

/// Delivered receipts waiting to be told to the senders, so that a burst of 1:1 messages to
/// an online recipient makes one `conversation.receipt` per conversation while one is being
/// told, not one per message: the newest marker per (conversation, recipient) is kept, and
/// whoever finds no one telling starts a pass that drains what piled up meanwhile. (The
/// markers themselves are written in each send's own write.)
final class DeliveredMarks: Sendable {
    struct Key: Hashable, Sendable {
        let conversation: ConversationID
        let user: UserID
    }

    /// The newest marker waiting per key, with whom to tell.
    struct Mark: Sendable {
        let seq: Int64
        let notify: UserID
    }

    private struct State {
        var waiting: [Key: Mark] = [:]
        var telling = false
        /// The last marker told per key, and when: sends finish in any order after their
        /// commits, so an older marker can arrive after a newer one was told, and is dropped
        /// here. Entries older than `toldMemory` go once the table grows past `toldLimit`.
        var told: [Key: (seq: Int64, at: ContinuousClock.Instant)] = [:]
    }

    /// How long a told marker is remembered (far longer than the gap between two sends'
    /// completions of one commit), and how many before the old ones are swept.
    private static let toldMemory = Duration.seconds(2)
    private static let toldLimit = 4096

    private let state = PThreadMutex(State())

    /// Notes that `user`'s delivered marker in `conversation` is now `seq`, for `notify` to
    /// hear; true if the caller must start draining (no pass is running).
    func note(_ seq: Int64, in conversation: ConversationID, to user: UserID, notify: UserID) -> Bool {
        state.withLock { state in
            let key = Key(conversation: conversation, user: user)
            guard seq > max(state.waiting[key]?.seq ?? 0, state.told[key]?.seq ?? 0) else { return false }
            state.waiting[key] = Mark(seq: seq, notify: notify)
            guard !state.telling else { return false }
            state.telling = true
            return true
        }
    }

    /// What waits, taken; empty (and the pass over) when nothing does.
    func take() -> [Key: Mark] {
        state.withLock { state in
            let taken = state.waiting
            state.waiting = [:]
            if taken.isEmpty { state.telling = false }
            let now = ContinuousClock.now
            if state.told.count > Self.toldLimit {
                state.told = state.told.filter { now - $0.value.at < Self.toldMemory }
            }
            for (key, mark) in taken { state.told[key] = (mark.seq, now) }
            return taken
        }
    }
}
