import ParleyCore
import ParleySync

/// Which connections told the server their app is in the background (`client.state
/// inactive`). A user is away when no connection of theirs on this server is active and
/// none is open on another server of the cluster (whose state this server does not know,
/// so it counts as active: never a push to someone who may be looking).
final class ClientActivity: Sendable {
    private let inactive = PThreadMutex<Set<ConnectionToken>>([])
    /// Told of every change (the Jabber gateway shows a native device in the background as
    /// `away`).
    private let observer = PThreadMutex<SendableCallback<(ConnectionToken, Bool)>?>(nil)

    func set(_ token: ConnectionToken, active: Bool) {
        let changed = inactive.withLock { set in
            active ? set.remove(token) != nil : set.insert(token).inserted
        }
        if changed { observer.withLock { $0 }?.call((token, active)) }
    }

    /// Sets who hears of changes.
    func observe(_ observer: @escaping @Sendable (ConnectionToken, Bool) -> Void) {
        self.observer.withLock { $0 = SendableCallback { observer($0.0, $0.1) } }
    }

    /// The connection closed.
    func forget(_ token: ConnectionToken) {
        _ = inactive.withLock { $0.remove(token) }
    }

    func isInactive(_ token: ConnectionToken) -> Bool {
        inactive.withLock { $0.contains(token) }
    }

    /// The connections in the background now: one lock for a check of many connections (the
    /// members of a group a message goes to).
    var inactiveTokens: Set<ConnectionToken> {
        inactive.withLock { $0 }
    }
}
