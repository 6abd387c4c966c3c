import ParleyProtocol
import ParleySync

/// Users found to have no push target, remembered for a while, so that a message to a group
/// whose members are mostly offline without any push registration does not cost a store read
/// per member every coalescing window. A registration made through this server ends the
/// entry at once; one made through another server of a cluster counts after `lifetime`.
final class AbsentTargets: Sendable {
    private let lifetime: Int64
    private let capacity: Int
    private let until = PThreadMutex<[UserID: Int64]>([:])

    /// Entries last `lifetime` milliseconds; at most `capacity` are kept.
    init(lifetime: Int64 = 60_000, capacity: Int = 200_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Whether `user` was found without targets less than `lifetime` before `now`.
    func contains(_ user: UserID, now: Int64) -> Bool {
        until.withLock { ($0[user] ?? 0) > now }
    }

    func remember(_ user: UserID, now: Int64) {
        until.withLock { table in
            if table.count >= capacity {
                table = table.filter { $0.value > now }
                // Still full of live entries: start again rather than grow (a miss costs one read).
                if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            }
            table[user] = now + lifetime
        }
    }

    /// The user registered a target.
    func forget(_ user: UserID) {
        _ = until.withLock { $0.removeValue(forKey: user) }
    }
}
