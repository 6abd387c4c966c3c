/// The deadlines of one connection: idle (no input for too long), write stall (the peer
/// leaves our writes unread for too long) and linger (the peer's end of stream after ours).
///
/// Owned by its `TCPConnection` and used only on its loop. The idle and stall timers are not
/// moved on every read or write: when one fires it checks the last activity and, if there was
/// some since, sleeps for the rest; one heap operation per period at most.
struct ConnectionTimers {
    /// When the peer last sent something; the idle timeout counts from here.
    var lastRead: UInt64
    /// When our writes last made progress; the write stall timeout counts from here.
    var lastWriteProgress: UInt64
    /// The idle timer, or once the connection lingers, the linger timer: never both, and one
    /// slot less in every connection (a million idle connections pay for each).
    private var idle: ScheduledTimer?
    private var stall: ScheduledTimer?

    init(now: UInt64) {
        lastRead = now
        lastWriteProgress = now
    }

    /// Nanoseconds left of `limit` counted from `start`; 0 once it has passed.
    static func remaining(of limit: UInt64, since start: UInt64, now: UInt64) -> UInt64 {
        let elapsed = now &- start
        return elapsed >= limit ? 0 : limit - elapsed
    }

    /// Starts the idle timer for `timeout` (nil: none) unless it runs already; when the
    /// connection has read nothing for that long, it is closed with `.idleTimeout`.
    mutating func armIdle(_ timeout: Duration?, for connection: TCPConnection, on loop: EventLoop) {
        guard let timeout, idle == nil else { return }
        let limit = timeout.nanoseconds
        let wait = Self.remaining(of: limit, since: lastRead, now: loop.now)
        idle = loop.schedule(after: .nanoseconds(Int64(wait))) { [weak connection] in
            guard let connection, !connection.isClosed else { return }
            connection.timers.idle = nil
            if MonotonicClock.now() &- connection.timers.lastRead >= limit {
                connection.loop.metrics.idleClosed.add(1, ordering: .relaxed)
                connection.closeNow(.idleTimeout)
            } else {
                connection.timers.armIdle(timeout, for: connection, on: connection.loop)
            }
        }
    }

    /// Stops the idle timer (to change the timeout), or the linger timer.
    mutating func cancelIdle() {
        idle?.cancel()
        idle = nil
    }

    /// Starts the write stall timer unless it runs already: a connection still waiting for
    /// the socket to take its writes `limit` after their last progress is cut off.
    mutating func armStall(_ limit: Duration, for connection: TCPConnection, on loop: EventLoop) {
        guard stall == nil else { return }
        let nanoseconds = limit.nanoseconds
        let wait = Self.remaining(of: nanoseconds, since: lastWriteProgress, now: loop.now)
        stall = loop.schedule(after: .nanoseconds(Int64(wait))) { [weak connection] in
            guard let connection, !connection.isClosed else { return }
            connection.timers.stall = nil
            guard connection.isWaitingForWritable else { return }
            if MonotonicClock.now() &- connection.timers.lastWriteProgress >= nanoseconds {
                connection.loop.metrics.slowPeersClosed.add(1, ordering: .relaxed)
                connection.closeNow(.slowPeer)
            } else {
                connection.timers.armStall(limit, for: connection, on: connection.loop)
            }
        }
    }

    /// Stops the write stall timer: everything queued was written.
    mutating func cancelStall() {
        stall?.cancel()
        stall = nil
    }

    /// After our end of stream: the connection closes with `reason` after `timeout` if the
    /// peer's end has not come by then.
    mutating func armLinger(_ timeout: Duration, reason: ConnectionCloseReason, for connection: TCPConnection, on loop: EventLoop) {
        cancelIdle()
        idle = loop.schedule(after: timeout) { [weak connection] in
            connection?.closeNow(reason)
        }
    }

    /// Stops every timer (the connection closed).
    mutating func cancelAll() {
        cancelIdle()
        cancelStall()
    }
}
