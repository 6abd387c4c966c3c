import ParleyProtocol

/// The envelope of a frame from the server, read first to route it: a response has an `id`
/// and `ok`, an event has `event`. `IncomingData` then reads the same bytes again as the
/// payload type the waiting caller expects (the way the server reads requests).
struct IncomingFrame: Decodable {
    var id: RequestID?
    var ok: Bool?
    var event: String?
    var error: ProtocolError?
}

/// The `data` member of a response or event, decoded as `Payload`.
struct IncomingData<Payload: Decodable>: Decodable {
    var data: Payload
}

/// The result of `auth`.
struct AuthReply: Decodable, Sendable {
    var user: Account
}

/// The result of `ping`.
public struct PingReply: Decodable, Sendable, Equatable {
    /// The server's clock, ms since the epoch.
    public var time: Int64
}

/// The `friend.removed` event.
struct FriendRemoved: Decodable, Sendable {
    var userId: UserID
}
