public import ParleyProtocol

/// Everything a `ParleyClient` call can fail with: the server's refusal (with the protocol's
/// stable `ErrorCode`) or a reason on this side of the wire.
public enum ParleyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the request; `ProtocolError` has the code, message, field and
    /// `retryAfterSeconds`.
    case server(ProtocolError)
    /// No connection, and the request could not wait for one (or waited in vain).
    case offline(OfflineReason)
    /// The connection dropped while the request was in flight; the server may or may not
    /// have carried it out (sends go through the outbox, which makes this safe for them).
    case connectionLost
    /// No answer within the request timeout.
    case timedOut
    /// The network failed below the protocol (refused connection, DNS, handshake, HTTP
    /// without a Parley error body).
    case transport(String)
    /// The server's answer could not be read as the protocol says.
    case invalidResponse(String)
    /// The call needs a signed-in account.
    case notSignedIn
    /// The local cache or outbox (SQLite) failed.
    case storage(String)
    /// The caller's task was cancelled, or the client was stopped.
    case cancelled

    /// The protocol's error code, for refusals by the server.
    public var code: ErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }

    /// The request field at fault, for field errors.
    public var field: String? {
        if case .server(let error) = self { return error.field }
        return nil
    }

    /// For rate limits: seconds until a retry may succeed.
    public var retryAfterSeconds: Int? {
        if case .server(let error) = self { return error.retryAfterSeconds }
        return nil
    }

    /// A human-readable explanation (English), for logs and developers.
    public var message: String {
        switch self {
        case .server(let error): return error.message
        case .offline(let reason): return "not connected: \(reason)"
        case .connectionLost: return "the connection dropped before the server answered"
        case .timedOut: return "the server did not answer in time"
        case .transport(let reason): return reason
        case .invalidResponse(let reason): return "unexpected answer from the server: \(reason)"
        case .notSignedIn: return "not signed in"
        case .storage(let reason): return "local storage failed: \(reason)"
        case .cancelled: return "cancelled"
        }
    }

    /// Whether trying the same request again later may succeed (network trouble, rate
    /// limits, an overloaded server), as opposed to a refusal that will repeat.
    public var isTransient: Bool {
        switch self {
        case .offline, .connectionLost, .timedOut, .transport: return true
        case .server(let error): return [.rateLimited, .unavailable, .internalError].contains(error.code)
        case .invalidResponse, .notSignedIn, .storage, .cancelled: return false
        }
    }

    /// `code: message` for server errors, the message otherwise.
    public var description: String {
        if case .server(let error) = self { return error.description }
        return message
    }
}
