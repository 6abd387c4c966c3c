import ParleyNet

/// The native recipients of one event that live on one event loop, with what hands them the
/// event's frame: at once on that loop, or in one closure for all of them from elsewhere
/// (one wake-up of the loop per event, not one per recipient).
struct LoopRecipients {
    let loop: EventLoop
    private(set) var sessions: InlineFirstList<ClientSession>

    init(_ session: ClientSession) {
        loop = session.loop
        // Appended rather than an array literal, whose arguments would be an array of their own.
        sessions = InlineFirstList()
        sessions.append(session)
    }

    /// Adds a session of this loop; the list makes room for `expecting` the first time it
    /// grows past one, so that a group's members on one loop cost one allocation.
    mutating func append(_ session: ClientSession, expecting: Int) {
        if sessions.count == 1 { sessions.reserveCapacity(expecting) }
        sessions.append(session)
    }

    /// Queues `frame` on every session. On the loop itself this happens now, as the event of a
    /// lone recipient always did: an event to many and a later one to one of them, both from
    /// this loop, then reach that one in the order they were delivered (a queued closure
    /// would let the later one pass).
    func deliver(_ frame: ByteChunk, flushWithin window: Duration) {
        if loop.inEventLoop {
            for session in sessions { session.deliverOnLoop(frame, flushWithin: window) }
            return
        }
        let sessions = self.sessions
        loop.execute { for session in sessions { session.deliverOnLoop(frame, flushWithin: window) } }
    }
}

extension InlineFirstList<LoopRecipients> {
    /// Files `session` under its loop's recipients, starting them if it is the loop's first.
    mutating func add(_ session: ClientSession, expecting: Int) {
        let loop = session.loop
        // Found and appended to in place: an index found first, then `update(at:)`, left the
        // list's array shared for the update, which copied it for every recipient
        // (docs/benchmarks.md, (aq)).
        let filed = containsInPlace { recipients in
            guard recipients.loop === loop else { return false }
            recipients.append(session, expecting: expecting)
            return true
        }
        if !filed { append(LoopRecipients(session)) }
    }
}
