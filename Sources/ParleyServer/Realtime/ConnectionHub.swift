import ParleyNet
import ParleyProtocol
import Synchronization

/// Every authenticated WebSocket, by user, so that events reach all of a user's devices.
/// Events are encoded once into one WebSocket frame that every recipient's connection
/// queues as the same bytes.
final class ConnectionHub: Sendable {
    private let byUser = Mutex<[UserID: [ObjectIdentifier: ClientSession]]>([:])
    private let encoder = WebSocketFrameEncoder(role: .server)

    func add(_ session: ClientSession, for user: UserID) {
        byUser.withLock { $0[user, default: [:]][ObjectIdentifier(session)] = session }
    }

    func remove(_ session: ClientSession, for user: UserID) {
        byUser.withLock { table in
            table[user]?[ObjectIdentifier(session)] = nil
            if table[user]?.isEmpty == true { table[user] = nil }
        }
    }

    /// The user's connected sessions.
    func sessions(of user: UserID) -> [ClientSession] {
        byUser.withLock { Array(($0[user] ?? [:]).values) }
    }

    /// Number of users with at least one connection.
    var onlineUsers: Int { byUser.withLock { $0.count } }

    /// Sends an event to every connection of `user` (but `excluding`, if given).
    func push<Payload: Encodable & Sendable>(_ event: String, _ payload: Payload, to user: UserID, excluding: ClientSession? = nil) {
        let targets = sessions(of: user).filter { $0 !== excluding }
        guard !targets.isEmpty, let text = OperationCoding.event(event, payload) else { return }
        let frame = encoder.text(text)
        for session in targets { session.deliver(frame) }
    }

    /// Closes every WebSocket that signed in with the sign-in session `sessionID`.
    func disconnect(signInSession sessionID: String, of user: UserID, code: WebSocketCloseCode, reason: String) {
        for session in sessions(of: user) { session.closeIfSignedIn(with: sessionID, code: code, reason: reason) }
    }
}
