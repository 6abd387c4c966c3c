import ParleyProtocol
import ParleySync

/// Delivered markers waiting to be written, so that a burst of 1:1 messages to an online
/// recipient costs one marker write (and one receipt to the sender) per conversation while a
/// write is in flight, not one per message: the newest seq per (conversation, recipient) is
/// kept, and whoever finds no write running starts one that drains what piled up meanwhile.
final class DeliveredMarks: Sendable {
    struct Key: Hashable, Sendable {
        let conversation: ConversationID
        let user: UserID
    }

    private struct State {
        var waiting: [Key: Int64] = [:]
        var writing = false
    }

    private let state = PThreadMutex(State())

    /// Notes that `user` has received `conversation` up to `seq`; true if the caller must
    /// start draining (no write is running).
    func note(_ seq: Int64, in conversation: ConversationID, to user: UserID) -> Bool {
        state.withLock { state in
            let key = Key(conversation: conversation, user: user)
            state.waiting[key] = max(state.waiting[key] ?? 0, seq)
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
    }

    /// What waits, taken; empty (and the writer's turn over) when nothing does.
    func take() -> [Key: Int64] {
        state.withLock { state in
            let taken = state.waiting
            state.waiting = [:]
            if taken.isEmpty { state.writing = false }
            return taken
        }
    }
}
