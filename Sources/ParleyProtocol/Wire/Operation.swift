/// One operation of the WebSocket protocol (docs/protocol.md): its name on the wire, what
/// its request's `data` holds and what its response's `data` holds. Each is declared once,
/// in `Op`, and the server's handlers, ParleyKit's calls and parley-bench's requests all name
/// it by its type, so a client and the server cannot disagree on a shape.
public protocol APIOperation: Sendable {
    /// The request's `data`. A missing or null `data` reads as `{}`.
    associatedtype Parameters: Codable & Sendable
    /// The successful response's `data`.
    associatedtype Result: Codable & Sendable
    /// The `op` of the request frame.
    static var name: String { get }
}

/// The operations of the protocol, by area (`Op+Accounts.swift`, `Op+Social.swift`,
/// `Op+Conversations.swift`, `Op+Messages.swift`). Adding an operation is one type here and
/// one handler in the server (docs/architecture.md, "Adding an operation").
public enum Op {}

/// The `auth` operation's result.
public struct AuthReply: Codable, Sendable, Equatable {
    public var user: Account
    public init(user: Account) { self.user = user }
}

/// The `ping` operation's result.
public struct Pong: Codable, Sendable, Equatable {
    /// The server's clock, ms since the epoch.
    public var time: Int64
    public init(time: Int64) { self.time = time }
}
