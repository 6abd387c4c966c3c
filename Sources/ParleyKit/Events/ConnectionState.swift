/// Where the client's live connection stands. Apps show it (seed 000's "connection broken"
/// page, UI.md's "No connection — retrying in 5 s" banner).
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Opening the WebSocket, signing in and catching up; `attempt` counts from 1 since the
    /// last time the client was online.
    case connecting(attempt: Int)
    /// Signed in and caught up: requests go out at once, events arrive live.
    case online
    /// Not connected. `retryIn` is how long until the next attempt, or nil when the client
    /// will not try again by itself (stopped, signed out, or its session was refused).
    case offline(reason: OfflineReason, retryIn: Duration?)

    /// True when online.
    public var isOnline: Bool { self == .online }

    /// A short English description, for logs.
    public var description: String {
        switch self {
        case .connecting(let attempt): return "connecting (attempt \(attempt))"
        case .online: return "online"
        case .offline(let reason, let retryIn):
            guard let retryIn else { return "offline: \(reason)" }
            return "offline: \(reason); retrying in \(retryIn.components.seconds) s"
        }
    }
}

/// Why the client is offline.
public enum OfflineReason: Sendable, Equatable, CustomStringConvertible {
    /// `start()` has not been called, or `stop()` was.
    case stopped
    /// No account is signed in.
    case signedOut
    /// The server could not be reached (refused, unreachable, handshake failed, timed out).
    case unreachable(String)
    /// An open connection dropped; `code` is the WebSocket close code (1006 without a close).
    case connectionLost(code: Int, reason: String)
    /// The server is shutting down (close code 1001); it will be back.
    case serverShuttingDown
    /// The server refused the session (signed out elsewhere, or expired): sign in again.
    case sessionRefused(String)

    /// A short English description, for logs.
    public var description: String {
        switch self {
        case .stopped: return "stopped"
        case .signedOut: return "signed out"
        case .unreachable(let reason): return "server unreachable (\(reason))"
        case .connectionLost(let code, let reason): return reason.isEmpty ? "connection lost (\(code))" : "connection lost (\(code) \(reason))"
        case .serverShuttingDown: return "server shutting down"
        case .sessionRefused(let reason): return "session refused (\(reason))"
        }
    }
}
