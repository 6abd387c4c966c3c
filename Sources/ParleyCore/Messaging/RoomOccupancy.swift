public import ParleyProtocol
import ParleySync

/// Who is in which room now. Rooms live in memory: people enter and leave, and leave every
/// room when their last connection (on any server) drops.
///
/// In a cluster each server holds the entries made through it (`local`) and a copy of every
/// other server's (`remote`, by node id), kept current by the changes `replicate` publishes
/// and replaced by each server's full heartbeat (docs/architecture.md, "Rooms in a cluster"). A
/// room's occupants are the union. A leave removes the user from the room everywhere.
public final class RoomOccupancy: Sendable {
    /// One change made on this server, for the other servers.
    public enum Change: Sendable, Equatable {
        case entered(ConversationID, UserID)
        case left(ConversationID, UserID)
    }

    /// Rooms and their occupants, as one server holds them.
    public typealias Table = [ConversationID: Set<UserID>]

    private struct State {
        var local: Table = [:]
        var remote: [String: Table] = [:]

        func contains(_ room: ConversationID, _ user: UserID) -> Bool {
            local[room]?.contains(user) == true || remote.values.contains { $0[room]?.contains(user) == true }
        }

        func occupants(of room: ConversationID) -> Set<UserID> {
            remote.values.reduce(into: local[room] ?? []) { $0.formUnion($1[room] ?? []) }
        }

        mutating func removeEverywhere(_ room: ConversationID, _ user: UserID) -> Bool {
            var removed = Self.remove(room, user, from: &local)
            for node in Array(remote.keys) where Self.remove(room, user, from: &remote[node, default: [:]]) { removed = true }
            return removed
        }

        static func remove(_ room: ConversationID, _ user: UserID, from table: inout Table) -> Bool {
            guard table[room]?.remove(user) != nil else { return false }
            if table[room]?.isEmpty == true { table[room] = nil }
            return true
        }
    }

    private let state = PThreadMutex(State())
    /// Where this server's changes go (the cluster), or nil for a single server.
    private let replication = PThreadMutex<SendableCallback<Change>?>(nil)

    public init() {}

    /// Sets who hears of the entries and leaves made on this server.
    public func replicate(_ publish: @escaping @Sendable (Change) -> Void) {
        replication.withLock { $0 = SendableCallback(publish) }
    }

    /// Adds `user`; returns false if they were in already (on any server).
    func enter(_ room: ConversationID, _ user: UserID) -> Bool {
        let entered = state.withLock { state in
            guard !state.contains(room, user) else { return false }
            state.local[room, default: []].insert(user)
            return true
        }
        if entered { publish(.entered(room, user)) }
        return entered
    }

    /// Removes `user` from the room on every server; returns false if they were not in.
    func leave(_ room: ConversationID, _ user: UserID) -> Bool {
        let left = state.withLock { $0.removeEverywhere(room, user) }
        if left { publish(.left(room, user)) }
        return left
    }

    func contains(_ room: ConversationID, _ user: UserID) -> Bool {
        state.withLock { $0.contains(room, user) }
    }

    func occupants(of room: ConversationID) -> [UserID] {
        state.withLock { Array($0.occupants(of: room)).sorted() }
    }

    func count(of room: ConversationID) -> Int {
        state.withLock { $0.occupants(of: room).count }
    }

    /// The rooms `user` is in.
    func rooms(of user: UserID) -> [ConversationID] {
        state.withLock { state in
            var rooms = Set(state.local.compactMap { $0.value.contains(user) ? $0.key : nil })
            for table in state.remote.values { rooms.formUnion(table.compactMap { $0.value.contains(user) ? $0.key : nil }) }
            return rooms.sorted()
        }
    }

    /// Every user in some room (for the sweep of occupants connected nowhere).
    var everyOccupant: Set<UserID> {
        state.withLock { state in
            var users = Set(state.local.values.joined())
            for table in state.remote.values { users.formUnion(table.values.joined()) }
            return users
        }
    }

    // MARK: Cluster

    /// The entries made on this server, for its heartbeat.
    public var localTable: Table {
        state.withLock { $0.local }
    }

    /// What this server holds of another server's entries (for comparing with its digest).
    public func table(of node: String) -> Table {
        state.withLock { $0.remote[node] ?? [:] }
    }

    /// Another server's change.
    public func apply(_ change: Change, from node: String) {
        state.withLock { state in
            switch change {
            case .entered(let room, let user): state.remote[node, default: [:]][room, default: []].insert(user)
            case .left(let room, let user): _ = state.removeEverywhere(room, user)
            }
        }
    }

    /// Another server's full table (its heartbeat): replaces what was known of it.
    public func replace(_ table: Table, of node: String) {
        state.withLock { $0.remote[node] = table.isEmpty ? nil : table }
    }

    /// Forgets a server that stopped or stopped answering; returns its entries no other server
    /// holds: users who are now in those rooms only through the lost server.
    func forget(_ node: String) -> [(room: ConversationID, user: UserID)] {
        state.withLock { state in
            guard let table = state.remote.removeValue(forKey: node) else { return [] }
            return table.flatMap { room, users in users.map { (room: room, user: $0) } }
                .filter { !state.contains($0.room, $0.user) }
                .sorted { ($0.room, $0.user) < ($1.room, $1.user) }
        }
    }

    /// Holds an entry here (after its server was lost while the user is still connected
    /// elsewhere), told to the other servers without a notice.
    func adopt(_ room: ConversationID, _ user: UserID) {
        let adopted = state.withLock { state in
            guard !state.contains(room, user) else { return false }
            state.local[room, default: []].insert(user)
            return true
        }
        if adopted { publish(.entered(room, user)) }
    }

    /// Tells the other servers that `user` left `room` through a lost server (whose entries
    /// this one already forgot), so they drop the entry too without waiting to give that
    /// server up themselves.
    func announceLeft(_ room: ConversationID, _ user: UserID) {
        publish(.left(room, user))
    }

    private func publish(_ change: Change) {
        replication.withLock { $0 }?.call(change)
    }
}
