import ParleySync

/// Streams a client may resume (XEP-0198), by the id the server gave them.
final class ResumableSessions: Sendable {
    private let byID = PThreadMutex<[String: XMPPSession]>([:])

    func hold(_ id: String, _ session: XMPPSession) {
        byID.withLock { $0[id] = session }
    }

    /// Takes the session out (a stream is resumed at most once).
    func take(_ id: String) -> XMPPSession? {
        byID.withLock { $0.removeValue(forKey: id) }
    }

    /// Forgets `id` if it still names `session` (a resumed stream holds it now otherwise).
    func remove(_ id: String, ifHeldBy session: XMPPSession) {
        byID.withLock { table in
            if table[id] === session { table[id] = nil }
        }
    }
}
