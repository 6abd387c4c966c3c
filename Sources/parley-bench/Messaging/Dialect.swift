/// The wire language a load client speaks: Parley's native protocol, the bench's bare relay,
/// or NATS's text protocol over a WebSocket. The same traffic is written in each, so that the
/// results compare the servers, not the load.
enum Dialect: String, Sendable, CaseIterable {
    /// JSON requests and events of docs/protocol.md (`auth`, `message.send`, `message.new`).
    case parley
    /// `relay-server`'s frames: `S topic`, `P id topic payload`, `A id`, and bare payloads.
    case relay
    /// NATS: `CONNECT`, `SUB`, `PUB`, `MSG`, `PING`/`PONG`, over WebSocket frames.
    case nats
}

/// What a received frame meant to the load.
enum Incoming: Equatable, Sendable {
    /// A measured message arrived: when it was sent and in which step.
    case delivery(sentAt: UInt64, step: Int)
    /// The server accepted the send stamped `sentAt` (Parley: stored durably; relay:
    /// forwarded).
    case ack(sentAt: UInt64)
    /// The server refused a send; the text says why.
    case refused(String)
    /// The server answered a setup request (Parley: a request with a string id).
    case reply(id: String, ok: Bool)
    /// Anything else the load does not measure (presence, system messages, NATS `INFO`).
    case ignored
    /// A frame the dialect could not read.
    case malformed(String)
}
