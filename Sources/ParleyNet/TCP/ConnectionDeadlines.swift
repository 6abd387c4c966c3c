/// The deadlines of one connection: idle (no input for too long), write stall (the peer
/// leaves our writes unread for too long), linger (the peer's end of stream after ours) and
/// one its handler sets (a WebSocket's next ping or its closing handshake's end).
///
/// Plain times, owned by its `TCPConnection` and used only on its loop: the loop's
/// `DeadlineWheel` holds the connection under the earliest of them and asks it when that
/// passes (`TCPConnection.deadlinePassed`). Reads and writes only stamp `lastRead` and
/// `lastWriteProgress`; a deadline that moved later is found out when the filed one comes.
struct ConnectionDeadlines {
    /// When the peer last sent something; the idle timeout counts from here.
    var lastRead: UInt64
    /// When our writes last made progress; the write stall timeout counts from here.
    var lastWriteProgress: UInt64
    /// Once the connection lingers: when it closes anyway. The idle timeout does not apply then.
    var lingerEnd: UInt64 = 0
    /// The handler's deadline (`TCPConnection.setHandlerDeadline`); 0 for none.
    var handler: UInt64 = 0

    init(now: UInt64) {
        lastRead = now
        lastWriteProgress = now
    }

    /// Whether `limit` nanoseconds have passed since `start`.
    static func passed(_ limit: UInt64, since start: UInt64, now: UInt64) -> Bool {
        now &- start >= limit
    }
}
