import ParleyCore
import ParleySync

/// Which connections told the server their app is in the background (`client.state
/// inactive`). A user is away when no connection of theirs on this server is active and
/// none is open on another server of the cluster (whose state this server does not know,
/// so it counts as active: never a push to someone who may be looking).
final class ClientActivity: Sendable {
    private let inactive = PThreadMutex<Set<ConnectionToken>>([])

    func set(_ token: ConnectionToken, active: Bool) {
        inactive.withLock { set in
            if active { set.remove(token) } else { set.insert(token) }
        }
    }

    /// The connection closed.
    func forget(_ token: ConnectionToken) {
        _ = inactive.withLock { $0.remove(token) }
    }

    func isInactive(_ token: ConnectionToken) -> Bool {
        inactive.withLock { $0.contains(token) }
    }
}
