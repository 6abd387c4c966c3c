public import ParleyProtocol
import ParleySync

/// Online and offline, told to friends once per real change (the gateway calls these only
/// when a user's first connection comes or last one goes), and rooms left on going offline.
public final class PresenceService: Sendable {
    let context: MessagingContext
    let rooms: RoomService
    /// The state each user's friends were last told. Announcements run as tasks that may
    /// finish out of order, so each one tells the state as it is when it runs, and only if it
    /// differs from the last one told: one event per real change, never a repeat.
    private let announced = PThreadMutex<[UserID: Bool]>([:])

    public init(context: MessagingContext, rooms: RoomService) {
        self.context = context
        self.rooms = rooms
    }

    /// The user's first connection authenticated.
    public func cameOnline(_ user: UserID) async {
        // Online on another server of the cluster already: friends were told there.
        if context.delivery.isOnlineElsewhere(user) {
            announced.withLock { $0[user] = true }
            return
        }
        await announce(user)
    }

    /// Another server of the cluster changed the user's connections, and announced the
    /// change if it was one: friends now know the user as `online` (the cluster's state), so
    /// only a change from that is announced here.
    public func heard(_ user: UserID, online: Bool) {
        announced.withLock { $0[user] = online }
    }

    /// The server the user was connected to stopped answering and its connections were given
    /// up: the user is offline now, told by the one server the cluster picks for it.
    public func expired(_ user: UserID) async {
        _ = announced.withLock { $0.removeValue(forKey: user) }
        await wentOffline(user)
    }

    /// The user's last connection closed: they leave their rooms and friends see them go.
    public func wentOffline(_ user: UserID) async {
        let settle = context.delivery.presenceSettleTime
        if settle > .zero { try? await Task.sleep(for: settle) }
        // Rooms are left on the last disconnection anywhere: a user still connected to another
        // server of the cluster (or whose new connection there is news on its way, hence the
        // settle time first) stays in them; that server leaves them when it sees the end.
        if !context.delivery.isOnlineElsewhere(user) { await rooms.leaveAll(user) }
        await announce(user)
    }

    /// After the cluster lost touch for longer than its expiry (a NATS outage), when other
    /// servers may have told friends this user went offline, and told this server's users
    /// the same of theirs: the user's friends hear again that the user is online, and the
    /// user hears which friends are. Online news repeated is harmless; a stale offline is not.
    public func reannounce(_ user: UserID) async {
        let delivery = context.delivery
        guard delivery.isOnline(user),
              let friends = try? await context.gateway.read({ reader in try reader.friendships(of: user).map(\.friendID) }) else { return }
        announced.withLock { $0[user] = true }
        let listening = friends.filter { delivery.isOnline($0) }
        guard !listening.isEmpty else { return }
        let now = context.clock()
        delivery.deliver(.presence(Presence(userId: user, online: true, at: now)), to: listening, excluding: nil)
        for friend in listening {
            delivery.deliver(.presence(Presence(userId: friend, online: true, at: now)), to: [user], excluding: nil)
        }
    }

    private func announce(_ user: UserID) async {
        guard let friends = try? await context.gateway.read({ reader in try reader.friendships(of: user).map(\.friendID) }) else { return }
        let delivery = context.delivery
        let online = delivery.isOnline(user)
        let changed = announced.withLock { table in
            guard table[user] != online else { return false }
            table[user] = online
            return true
        }
        guard changed else { return }
        // The last connection anywhere closed: kept as the user's last seen.
        if !online { await LastSeenService(context: context).record(user) }
        let listening = friends.filter { delivery.isOnline($0) }
        guard !listening.isEmpty else { return }
        delivery.deliver(.presence(Presence(userId: user, online: online, at: context.clock())), to: listening, excluding: nil)
    }
}
