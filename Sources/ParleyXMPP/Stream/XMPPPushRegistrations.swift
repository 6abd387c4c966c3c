import ParleyCore
import ParleyProtocol
import ParleySync

/// The push registrations (XEP-0357 `enable`) of users' Jabber clients: which app server
/// (an account of this server) and node to publish a notification to while the user is
/// away. Kept in the server's memory: clients enable push on every stream they open, so a
/// restart loses nothing a client does not give again at its next connection.
final class XMPPPushRegistrations: Sendable {
    /// One registration: the app server's JID and account, the node, the publish options the
    /// client gave (kept to be sent with each publish), and how many notifications it got.
    struct Registration: Sendable, Equatable {
        var service: JID
        var serviceUser: UserID
        var node: String
        var options: DataForm?
        var notified: Int = 0
    }

    private let table = PThreadMutex<[UserID: [Registration]]>([:])
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds (or renews, with its count started again) a registration; false if the user has
    /// `limit` others already.
    func enable(_ user: UserID, _ registration: Registration) -> Bool {
        table.withLock { table in
            var list = table[user, default: []]
            list.removeAll { $0.service == registration.service && $0.node == registration.node }
            guard list.count < limit else { return false }
            list.append(registration)
            table[user] = list
            return true
        }
    }

    /// Removes the registrations for `service`'s `node`, or all of `service`'s with no node.
    func disable(_ user: UserID, service: JID, node: String?) {
        table.withLock { table in
            table[user]?.removeAll { $0.service == service && (node == nil || $0.node == node) }
            if table[user]?.isEmpty == true { table[user] = nil }
        }
    }

    /// Whether the user has a registration.
    func has(_ user: UserID) -> Bool {
        table.withLock { $0[user] != nil }
    }

    /// The users among `users` with a registration, in their order: asked for every message,
    /// with its members, so one lock for all of them (and no lookup while nobody registered).
    func registered(among users: [UserID]) -> [UserID] {
        table.withLock { table in table.isEmpty ? [] : users.filter { table[$0] != nil } }
    }

    /// Counts one more notification for each of the user's registrations; returns them.
    func notify(_ user: UserID) -> [Registration] {
        table.withLock { table in
            guard var list = table[user] else { return [] }
            for index in list.indices { list[index].notified += 1 }
            table[user] = list
            return list
        }
    }

    /// The user's registrations.
    func registrations(of user: UserID) -> [Registration] {
        table.withLock { $0[user] ?? [] }
    }
}
