public import ParleyProtocol

/// Which users are connected to which other node, learnt from their notices, with each
/// node's last sign of life. Pure bookkeeping (no clock, no I/O): the caller passes the time
/// and acts on what the methods return. Not thread-safe; `ClusterDelivery` holds it in a mutex.
public struct ClusterDirectory: Sendable {
    private struct Node: Sendable {
        var users: Set<UserID> = []
        var lastSeen: UInt64
        /// `ClusterDigest.users` of `users`, kept current with every change.
        var digest: UInt64 = 0
    }

    /// This node's id: its own notices are ignored.
    public let me: String
    private var nodes: [String: Node] = [:]
    private var located: [UserID: Set<String>] = [:]

    public init(me: String) { self.me = me }

    /// The other nodes heard from and not expired.
    public var liveNodes: [String] { nodes.keys.sorted() }

    /// Whether `user` is connected to another node.
    public func isOnline(_ user: UserID) -> Bool { located[user] != nil }

    /// The other nodes holding connections of `users`, each with its users among them.
    public func nodes(of users: [UserID]) -> [String: [UserID]] {
        var result: [String: [UserID]] = [:]
        for user in users {
            for node in located[user] ?? [] { result[node, default: []].append(user) }
        }
        return result
    }

    /// The users part of the digest of what this node holds of `node` (zero for a node not
    /// heard from, as for one without users).
    public func usersDigest(of node: String) -> UInt64 { nodes[node]?.digest ?? 0 }

    /// Applies a notice; returns the users whose presence on another node changed (so cached
    /// announcements about them are stale). Own notices change nothing.
    public mutating func apply(_ notice: ClusterNotice, now: UInt64) -> [UserID] {
        guard notice.node != me else { return [] }
        switch notice.kind {
        case .beat:
            let old = nodes[notice.node]?.users ?? []
            let new = Set(notice.users)
            let removed = old.subtracting(new), added = new.subtracting(old)
            for user in removed { unlocate(user, notice.node) }
            for user in added { located[user, default: []].insert(notice.node) }
            nodes[notice.node] = Node(users: new, lastSeen: now, digest: ClusterDigest.users(new))
            return (Array(removed) + added).sorted()
        case .online:
            touch(notice.node, now: now)
            // In place: a sign-in burst must not copy a node's whole set for every notice.
            var added: [UserID] = []
            for user in notice.users where nodes[notice.node]?.users.insert(user).inserted == true {
                nodes[notice.node]?.digest &+= ClusterDigest.element(user)
                located[user, default: []].insert(notice.node)
                added.append(user)
            }
            return added
        case .offline:
            touch(notice.node, now: now)
            var removed: [UserID] = []
            for user in notice.users where nodes[notice.node]?.users.remove(user) != nil {
                nodes[notice.node]?.digest &-= ClusterDigest.element(user)
                unlocate(user, notice.node)
                removed.append(user)
            }
            return removed
        case .bye:
            return remove(notice.node)
        case .hello, .digest, .ask, .entered, .left:
            // Each proves the node alive; none changes its users (a digest that differs from
            // the copy is answered by the caller with an `ask`).
            touch(notice.node, now: now)
            return []
        }
    }

    /// Forgets the nodes not heard from since `deadline`; returns them and the users they held.
    public mutating func expire(before deadline: UInt64) -> (nodes: [String], users: [UserID]) {
        let dead = nodes.filter { $0.value.lastSeen < deadline }.map(\.key).sorted()
        return (dead, Array(Set(dead.flatMap { remove($0) })).sorted())
    }

    /// Whether this node is the one that acts for the cluster on a dead node's users (tells
    /// their friends they went offline): the live node with the smallest id, so exactly one
    /// does when every node sees the same members.
    public var actsForCluster: Bool { nodes.keys.allSatisfy { me < $0 } }

    private mutating func touch(_ node: String, now: UInt64) {
        if nodes[node] == nil { nodes[node] = Node(lastSeen: now) } else { nodes[node]?.lastSeen = now }
    }

    private mutating func remove(_ node: String) -> [UserID] {
        guard let gone = nodes.removeValue(forKey: node) else { return [] }
        for user in gone.users { unlocate(user, node) }
        return gone.users.sorted()
    }

    private mutating func unlocate(_ user: UserID, _ node: String) {
        located[user]?.remove(node)
        if located[user]?.isEmpty == true { located[user] = nil }
    }
}
