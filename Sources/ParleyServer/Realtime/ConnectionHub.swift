import ParleyCore
import ParleyNet
import ParleyProtocol
import Synchronization

/// Every authenticated connection, by user: the core's `Delivery` and the gateways'
/// `ConnectionRegistry`. Native WebSockets and typed receivers (XMPP sessions) are held
/// together, so online state counts both. An event is encoded once into one WebSocket frame
/// that every native recipient queues; typed receivers get the payload itself.
final class ConnectionHub: Delivery, ConnectionRegistry {
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
    }

    private let byUser = Mutex<[UserID: [ObjectIdentifier: Member]]>([:])
    private let encoder = WebSocketFrameEncoder(role: .server)

    /// Registers a signed-in WebSocket; true if it is the user's first connection.
    func add(_ session: ClientSession, for user: UserID) -> Bool {
        insert(.native(session), id: ObjectIdentifier(session), for: user)
    }

    /// Forgets a WebSocket; true if it was the user's last connection.
    func remove(_ session: ClientSession, for user: UserID) -> Bool {
        delete(ObjectIdentifier(session), for: user)
    }

    func add(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        insert(.typed(receiver), id: ObjectIdentifier(receiver), for: user)
    }

    func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        delete(ObjectIdentifier(receiver), for: user)
    }

    func receivers(of user: UserID) -> [any EventReceiver] {
        byUser.withLock { table in
            (table[user] ?? [:]).values.compactMap { if case .typed(let receiver) = $0 { return receiver } else { return nil } }
        }
    }

    private func insert(_ member: Member, id: ObjectIdentifier, for user: UserID) -> Bool {
        byUser.withLock { table in
            let first = table[user]?.isEmpty ?? true
            table[user, default: [:]][id] = member
            return first
        }
    }

    private func delete(_ id: ObjectIdentifier, for user: UserID) -> Bool {
        byUser.withLock { table in
            guard table[user]?.removeValue(forKey: id) != nil else { return false }
            if table[user]?.isEmpty == true {
                table[user] = nil
                return true
            }
            return false
        }
    }

    /// The user's connected WebSockets.
    func sessions(of user: UserID) -> [ClientSession] {
        byUser.withLock { table in
            (table[user] ?? [:]).values.compactMap { if case .native(let session) = $0 { return session } else { return nil } }
        }
    }

    func isOnline(_ user: UserID) -> Bool {
        byUser.withLock { $0[user] != nil }
    }

    func deliver<Payload: Encodable & Sendable>(event: String, payload: Payload, to users: [UserID], excluding: ConnectionToken?) {
        let targets = byUser.withLock { table in users.flatMap { table[$0].map { Array($0.values) } ?? [] } }
            .filter { $0.token != excluding }
        guard !targets.isEmpty else { return }
        // Encoded at most once, and only if a native connection is among the recipients.
        var frame: ByteChunk?
        var encoded = false
        for target in targets {
            switch target {
            case .native(let session):
                if !encoded {
                    encoded = true
                    frame = OperationCoding.event(event, payload).map { encoder.text($0) }
                }
                if let frame { session.deliver(frame) }
            case .typed(let receiver):
                receiver.receive(event: event, payload: payload)
            }
        }
    }

    /// Sends an event to every connection of `user` (but `excluding`, if given).
    func push<Payload: Encodable & Sendable>(_ event: String, _ payload: Payload, to user: UserID, excluding: ClientSession? = nil) {
        deliver(event: event, payload: payload, to: [user], excluding: excluding?.token)
    }

    /// Closes every WebSocket that signed in with the sign-in session `sessionID`.
    func disconnect(signInSession sessionID: String, of user: UserID, code: WebSocketCloseCode, reason: String) {
        for session in sessions(of: user) { session.closeIfSignedIn(with: sessionID, code: code, reason: reason) }
    }
}
