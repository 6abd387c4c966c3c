/// The client side of NATS's text protocol that the bench writes.
enum NATSFrames {
    /// Plain, no acknowledgements, and no copies of one's own publications (as Parley leaves
    /// the sender out of its own `message.new`).
    static let connect = "CONNECT {\"verbose\":false,\"pedantic\":false,\"echo\":false,\"lang\":\"swift\",\"version\":\"parley-bench\",\"protocol\":1}\r\n"

    static func subscribe(_ subject: String, sid: Int) -> String { "SUB \(subject) \(sid)\r\n" }

    static func publish(_ subject: String, payload: String) -> String {
        "PUB \(subject) \(payload.utf8.count)\r\n\(payload)\r\n"
    }

    static let pong = "PONG\r\n"
}

extension NATSFrames {
    /// Answered by `PONG` once everything before it has been processed.
    static let ping = "PING\r\n"
}
