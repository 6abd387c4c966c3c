import ParleyCore
import ParleyProtocol
import ParleySync

/// A `Delivery` that keeps what the core sent, to whom, leaving whom out, and answers online
/// state from a set the test controls: the core's decisions, seen without a server.
final class RecordingDelivery: Delivery {
    struct Sent: Equatable {
        let event: ServerEvent
        let users: [UserID]
        let excluding: ConnectionToken?
    }

    private let sent = PThreadMutex<[Sent]>([])
    private let online = PThreadMutex<Set<UserID>>([])

    func setOnline(_ users: UserID..., online isOnline: Bool = true) {
        online.withLock { set in for user in users { if isOnline { set.insert(user) } else { set.remove(user) } } }
    }

    /// Everything sent so far, and forgets it.
    func take() -> [Sent] {
        sent.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    func deliver(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> [UInt8]? {
        sent.withLock { $0.append(Sent(event: event, users: users, excluding: excluding)) }
        return nil
    }

    func isOnline(_ user: UserID) -> Bool { online.withLock { $0.contains(user) } }

    func isOnline(_ user: UserID, excluding: ConnectionToken?) -> Bool { isOnline(user) }
}
