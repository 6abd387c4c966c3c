import ParleySync

/// Counts events per key over a rolling window and says when a key has had its share.
/// In memory: limits reset when the server restarts, which is acceptable for abuse control.
public final class SlidingWindowLimiter: Sendable {
    private let limit: Int
    private let windowMillis: Int64
    private let maxKeys: Int
    private let state = PThreadMutex<[String: [Int64]]>([:])

    /// At most `limit` events per key in any `windowSeconds`; at most `maxKeys` keys tracked
    /// (the oldest are dropped first) so memory stays bounded under attack.
    public init(limit: Int, windowSeconds: Int, maxKeys: Int = 100_000) {
        self.limit = limit
        windowMillis = Int64(windowSeconds) * 1000
        self.maxKeys = maxKeys
    }

    /// Records an event for `key` at `now` if allowed. Returns nil when allowed, else the
    /// seconds until the key may try again.
    public func attempt(_ key: String, now: Int64) -> Int? {
        if let wait = retryAfter(key, now: now) { return wait }
        record(key, now: now)
        return nil
    }

    /// The seconds until `key` may act again, or nil if it may now; records nothing.
    public func retryAfter(_ key: String, now: Int64) -> Int? {
        state.withLock { table in
            let times = (table[key] ?? []).filter { $0 > now - windowMillis }
            guard times.count >= limit else { return nil }
            let oldest = times[times.count - limit]
            return max(1, Int((oldest + windowMillis - now + 999) / 1000))
        }
    }

    /// Counts an event for `key` at `now` (e.g. a failed login).
    public func record(_ key: String, now: Int64) {
        state.withLock { table in
            var times = (table[key] ?? []).filter { $0 > now - windowMillis }
            times.append(now)
            if times.count > limit { times.removeFirst(times.count - limit) }
            if table[key] == nil && table.count >= maxKeys {
                prune(&table, now: now)
            }
            table[key] = times
        }
    }

    private func prune(_ table: inout [String: [Int64]], now: Int64) {
        table = table.filter { $0.value.contains { $0 > now - windowMillis } }
        while table.count >= maxKeys, let victim = table.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) }) {
            table[victim.key] = nil
        }
    }
}
