import ParleyProtocol

/// The delivered markers one XMPP session still has to move, coalesced.
///
/// A message handed to an XMPP client was delivered, and moving a marker is a database write.
/// Moving it once per handed-over message made that write the gateway's main cost under a
/// stream of chat. So at most one move is in flight per session: deliveries meanwhile only
/// raise the pending marker of their conversation, and the next move takes the newest.
/// Markers only ever move forward, so skipping the intermediate ones loses nothing.
struct ReadMarkQueue {
    /// The newest delivered sequence number not yet marked, per conversation.
    private var pending: [ConversationID: Int64] = [:]
    /// Conversations with a pending marker, first delivered first.
    private var order: [ConversationID] = []
    /// Whether a drain (a task calling `next()` until it returns nil) is running.
    private(set) var draining = false

    /// Records that message `seq` of `conversation` was delivered. Returns true when the
    /// caller must start a drain; false when the running drain will take it.
    mutating func offer(_ conversation: ConversationID, seq: Int64) -> Bool {
        if let known = pending[conversation] {
            pending[conversation] = max(known, seq)
        } else {
            pending[conversation] = seq
            order.append(conversation)
        }
        guard !draining else { return false }
        draining = true
        return true
    }

    /// The next marker to move; nil when none is left, which also ends the drain (in the
    /// same locked step, so an `offer` cannot slip between the two and be left behind).
    mutating func next() -> (conversation: ConversationID, seq: Int64)? {
        guard !order.isEmpty else {
            draining = false
            return nil
        }
        let conversation = order.removeFirst()
        guard let seq = pending.removeValue(forKey: conversation) else { return next() }
        return (conversation, seq)
    }
}
