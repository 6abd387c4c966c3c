/// Where a user's recent messages came from, by client id, the newest `limit` of them: what
/// lets a delivered message name the resource that sent it (`XMPPResources`,
/// `NativeResources`). Noted before each message is stored, so it is on every send's path.
///
/// A value kept inside a locked table and changed there in place
/// (`table[user, default: …].origins.note(…)`): a copy taken out of the table and written
/// back shares its storage with the table's entry, so its first change copies the whole
/// dictionary and order (on the Jabber 1:1 path that was ≈ 20,000 instructions a message).
/// Once full, the order is a ring: the oldest id is replaced, nothing shifts.
struct RecentOrigins<Origin: Sendable>: Sendable {
    private var byClientID: [String: Origin] = [:]
    /// Client ids in the order they came; once `limit` are kept, `oldest` is where the next
    /// one goes.
    private var order: [String] = []
    private var oldest = 0
    /// How many are kept (at least one).
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The origin noted for `clientID`, unless it was dropped for newer ones.
    subscript(clientID: String) -> Origin? {
        byClientID[clientID]
    }

    /// How many origins are kept now.
    var count: Int {
        byClientID.count
    }

    /// Notes the message's origin; a client id noted again keeps its place and takes the new
    /// origin. Drops the oldest when `limit` are kept.
    mutating func note(_ origin: Origin, for clientID: String) {
        guard byClientID.updateValue(origin, forKey: clientID) == nil else { return }
        if order.count < limit {
            order.append(clientID)
            return
        }
        byClientID[order[oldest]] = nil
        order[oldest] = clientID
        oldest = (oldest + 1) % limit
    }
}
