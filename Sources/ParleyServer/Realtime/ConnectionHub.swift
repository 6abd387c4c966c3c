import ParleyCluster
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySync

/// Every authenticated connection, by user: the core's `Delivery` and the gateways'
/// `ConnectionRegistry`. Native WebSockets and typed receivers (XMPP sessions) are held
/// together, so online state counts both. An event is encoded once into one WebSocket frame
/// that every native recipient queues; typed receivers get the payload itself.
///
/// Fan-out events (addressed to `fanOutUsers` users or more: group and room messages,
/// presence to many friends) wait for their loop's delivery window, `fanOutWindow`
/// (`--fanout-window-ms`), before they are flushed, so that a busy group's events share one
/// `writev` per connection; anything else written to the connection flushes them sooner.
final class ConnectionHub: LocalDelivery, ConnectionRegistry {
    /// One registered connection.
    private enum Member {
        case native(ClientSession)
        case typed(any EventReceiver)

        var token: ConnectionToken {
            switch self {
            case .native(let session): return session.token
            case .typed(let receiver): return receiver.token
            }
        }

        var id: ObjectIdentifier {
            switch self {
            case .native(let session): return ObjectIdentifier(session)
            case .typed(let receiver): return ObjectIdentifier(receiver)
            }
        }
    }

    /// A user's connections in a list that holds the first inline: most users have one, which
    /// then costs no allocation of its own (a one-entry dictionary was three times an array
    /// of one, and an array of one is a heap object of 48 bytes).
    private let byUser = PThreadMutex<[UserID: InlineFirstList<Member>]>([:])
    private let encoder = WebSocketFrameEncoder(role: .server)
    /// Told when a user's first connection comes (true) or last one goes (false), after the
    /// table changed: the cluster delivery's notices to the other nodes.
    private let observer = PThreadMutex<SendableCallback<(UserID, Bool)>?>(nil)
    /// How long a fan-out event may wait to share its flush with later ones; zero: never.
    let fanOutWindow: Duration
    /// Events addressed to at least this many users are fan-out: more than a 1:1
    /// conversation's two (whose events, like answers, are flushed in their turn).
    static let fanOutUsers = 3

    /// A hub whose fan-out events wait up to `fanOutWindow` to be flushed (zero: they do not).
    init(fanOutWindow: Duration = .zero) {
        self.fanOutWindow = fanOutWindow
    }

    /// How long an event addressed to `userCount` users may wait on a connection.
    func flushWindow(forEventTo userCount: Int) -> Duration {
        userCount >= Self.fanOutUsers ? fanOutWindow : .zero
    }

    /// Sets who hears of users' first and last connections.
    func observe(_ observer: @escaping @Sendable (UserID, Bool) -> Void) {
        self.observer.withLock { $0 = SendableCallback { change in observer(change.0, change.1) } }
    }

    var connectedUsers: [UserID] {
        byUser.withLock { Array($0.keys) }
    }

    /// Registers a signed-in WebSocket; true if it is the user's first connection.
    func add(_ session: ClientSession, for user: UserID) -> Bool {
        insert(.native(session), for: user)
    }

    /// Forgets a WebSocket; true if it was the user's last connection.
    func remove(_ session: ClientSession, for user: UserID) -> Bool {
        delete(ObjectIdentifier(session), for: user)
    }

    func add(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        insert(.typed(receiver), for: user)
    }

    func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        delete(ObjectIdentifier(receiver), for: user)
    }

    private func insert(_ member: Member, for user: UserID) -> Bool {
        let first = byUser.withLock { table in
            let first = table[user]?.isEmpty ?? true
            let id = member.id
            table[user, default: []].removeAll { $0.id == id }
            table[user, default: []].append(member)
            return first
        }
        if first { observer.withLock { $0 }?.call((user, true)) }
        return first
    }

    private func delete(_ id: ObjectIdentifier, for user: UserID) -> Bool {
        let last = byUser.withLock { table in
            guard let index = table[user]?.firstIndex(where: { $0.id == id }) else { return false }
            table[user]?.remove(at: index)
            if table[user]?.isEmpty == true {
                table[user] = nil
                return true
            }
            return false
        }
        if last { observer.withLock { $0 }?.call((user, false)) }
        return last
    }

    /// The user's connected WebSockets.
    func sessions(of user: UserID) -> [ClientSession] {
        byUser.withLock { table in
            (table[user] ?? []).compactMap { if case .native(let session) = $0 { return session } else { return nil } }
        }
    }

    func isOnline(_ user: UserID) -> Bool {
        byUser.withLock { $0[user] != nil }
    }

    /// Whether the user has a connection here that `isActive` holds (a push for one user; for
    /// a message's members, `users(among:withNo:)`). Nothing is copied out of the table.
    func hasConnection(of user: UserID, where isActive: (ConnectionToken) -> Bool) -> Bool {
        byUser.withLock { table in Self.lend(user, in: &table) { $0.containsInPlace { isActive($0.token) } } ?? false }
    }

    /// The users among `users` but `except` without a connection here that `isActive` holds,
    /// in their order: `hasConnection` for the members of a conversation at once, under one
    /// lock (`except`, a message's author, is not looked up).
    func users(among users: [UserID], except: UserID? = nil, withNo isActive: (ConnectionToken) -> Bool) -> [UserID] {
        byUser.withLock { table in
            users.filter { user in
                user != except && !(Self.lend(user, in: &table) { $0.containsInPlace { isActive($0.token) } } ?? false)
            }
        }
    }

    func isOnline(_ user: UserID, excluding: ConnectionToken?) -> Bool {
        byUser.withLock { table in Self.lend(user, in: &table) { $0.containsInPlace { $0.token != excluding } } ?? false }
    }

    @discardableResult
    func deliver(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> [UInt8]? {
        var unnoted: [UserID]? = nil
        return deliver(event, toEach: users, excluding: excluding, unconnected: &unnoted)
    }

    @discardableResult
    func deliver(_ event: ServerEvent, to user: UserID, excluding: ConnectionToken?) -> [UInt8]? {
        var unnoted: [UserID]? = nil
        return deliver(event, toEach: CollectionOfOne(user), excluding: excluding, unconnected: &unnoted)
    }

    /// `deliver` to many that notes the users not in the table as it looks each up: a new
    /// message's push checks (`users(among:except:withNo:)`) need not take a second pass.
    func fanOut(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> FanOut {
        // Empty until a member is missing: a group whose members are all here allocates nothing.
        var unconnected: [UserID]? = []
        let encoded = deliver(event, toEach: users, excluding: excluding, unconnected: &unconnected)
        return FanOut(encoded: encoded, unconnectedHere: unconnected)
    }

    /// Every `deliver`: one user's (a receipt) without an array of one, many users' as they
    /// come; the users with no connection here are appended to `unconnected` unless it is nil.
    private func deliver<Users: Collection<UserID>>(_ event: ServerEvent, toEach users: Users, excluding: ConnectionToken?,
                                                    unconnected: inout [UserID]?) -> [UInt8]? {
        // Native recipients are grouped by event loop as they are found: one closure per loop
        // carrying all of its recipients, not one per recipient, so a group message to 1,000
        // members costs as many loop wake-ups as there are loops. Both lists keep their first
        // entry inline: an event for one connection (a 1:1 message, a receipt, most events to
        // a Jabber stream) needs no array.
        var native = InlineFirstList<LoopRecipients>()
        var typed = InlineFirstList<any EventReceiver>()
        let expecting = users.count
        byUser.withLock { table in
            for user in users {
                let found: Void? = Self.lend(user, in: &table) { members in
                    members.forEachInPlace { member in
                        guard member.token != excluding else { return }
                        switch member {
                        case .native(let session): native.add(session, expecting: expecting)
                        case .typed(let receiver): typed.append(receiver)
                        }
                    }
                }
                if found == nil { unconnected?.append(user) }
            }
        }
        for receiver in typed { receiver.receive(event) }
        // Encoded at most once, and only if a native connection is among the recipients; the
        // frame's text is written in place, in the frame, around the data.
        guard !native.isEmpty, let data = event.dataJSON() else { return nil }
        let name = event.name
        let frame = encoder.frame(opcode: .text, payloadCount: FrameWriter.eventCount(name: name, dataCount: data.count)) { payload in
            JSONCursor.fill(payload) { FrameWriter.writeEvent(name: name, dataJSON: data, to: &$0) }
        }
        let window = flushWindow(forEventTo: expecting)
        for recipients in native { recipients.deliver(frame, flushWithin: window) }
        return data
    }

    /// Calls `body` with `user`'s connections where the table keeps them; nil if there are
    /// none. For the passes over the members of an event or a message: the table's getter
    /// would copy each user's list and each entry out of it, a retain and a release an entry
    /// (docs/benchmarks.md, (ah)). Only reads through it: the access is in place, not a change.
    private static func lend<Result>(_ user: UserID, in table: inout [UserID: InlineFirstList<Member>],
                                     _ body: (inout InlineFirstList<Member>) -> Result) -> Result? {
        // By index, not `table[user]?`: that in-place access makes room for an insertion
        // when the user is missing, and would grow a full table for a look-up.
        guard let index = table.index(forKey: user) else { return nil }
        return body(&table.values[index])
    }

    /// Closes every WebSocket of `user` that signed in with the sign-in session `sessionID`.
    func closeConnections(of user: UserID, signedInWith sessionID: String) {
        for session in sessions(of: user) {
            session.closeIfSignedIn(with: sessionID, code: CloseCodes.authFailed, reason: "signed out")
        }
        let typed = byUser.withLock { table in
            (table[user] ?? []).compactMap { member -> (any EventReceiver)? in
                if case .typed(let receiver) = member { return receiver } else { return nil }
            }
        }
        for receiver in typed { receiver.signInEnded(sessionID) }
    }

    func forward(_ stanza: ForwardedStanza, to users: [UserID], excluding: ConnectionToken?) {
        let receivers = byUser.withLock { table in
            users.flatMap { user in
                (table[user] ?? []).compactMap { member -> (any EventReceiver)? in
                    guard case .typed(let receiver) = member, receiver.token != excluding else { return nil }
                    return receiver
                }
            }
        }
        for receiver in receivers { receiver.receive(forwarded: stanza) }
    }
}
