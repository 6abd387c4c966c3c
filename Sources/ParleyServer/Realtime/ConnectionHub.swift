import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySync

/// Every authenticated WebSocket, by user: the core's `Delivery`. An event is encoded once
/// into one WebSocket frame, and every recipient connection queues those same bytes.
final class ConnectionHub: Delivery {
    private let byUser = PThreadMutex<[UserID: [ObjectIdentifier: ClientSession]]>([:])
    private let encoder = WebSocketFrameEncoder(role: .server)

    /// Registers a signed-in connection; true if it is the user's first (they came online).
    func add(_ session: ClientSession, for user: UserID) -> Bool {
        byUser.withLock { table in
            let first = table[user]?.isEmpty ?? true
            table[user, default: [:]][ObjectIdentifier(session)] = session
            return first
        }
    }

    /// Forgets a connection; true if it was the user's last (they went offline).
    func remove(_ session: ClientSession, for user: UserID) -> Bool {
        byUser.withLock { table in
            guard table[user]?.removeValue(forKey: ObjectIdentifier(session)) != nil else { return false }
            if table[user]?.isEmpty == true {
                table[user] = nil
                return true
            }
            return false
        }
    }

    /// The user's connected sessions.
    func sessions(of user: UserID) -> [ClientSession] {
        byUser.withLock { Array(($0[user] ?? [:]).values) }
    }

    func isOnline(_ user: UserID) -> Bool {
        byUser.withLock { $0[user] != nil }
    }

    func deliver<Payload: Encodable & Sendable>(event: String, payload: Payload, to users: [UserID], excluding: ConnectionToken?) {
        let targets = byUser.withLock { table in
            var targets: [ClientSession] = []
            for user in users {
                guard let sessions = table[user] else { continue }
                for session in sessions.values where session.token != excluding { targets.append(session) }
            }
            return targets
        }
        guard !targets.isEmpty, let text = OperationCoding.event(event, payload) else { return }
        let frame = encoder.text(text)
        guard targets.count > 1 else {
            targets[0].deliver(frame)
            return
        }
        // One task per event loop carrying all of its recipients, not one per recipient: a
        // group message to 1,000 members costs as many loop wake-ups as there are loops.
        var byLoop: [(loop: EventLoop, sessions: [ClientSession])] = []
        for session in targets {
            if let index = byLoop.firstIndex(where: { $0.loop === session.loop }) {
                byLoop[index].sessions.append(session)
            } else {
                byLoop.append((session.loop, [session]))
            }
        }
        for (loop, sessions) in byLoop {
            loop.execute { for session in sessions { session.deliverOnLoop(frame) } }
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
