/// A server the messaging scenarios drive, by the name its options (`--NAME-port`,
/// `--NAME-pid`), its result lines and the aims' keys use. Two servers may speak one dialect:
/// the bare and the durable relay differ only in what they do before they acknowledge.
enum BenchServer: String, Sendable, CaseIterable {
    /// parley serve.
    case parley
    /// `relay-server`: the transport alone.
    case relay
    /// `relay-server --durable`: the transport and a synced segment log, nothing else.
    case durableRelay = "durable-relay"
    /// nats-server with its WebSocket listener.
    case nats

    /// The wire language its clients speak.
    var dialect: Dialect {
        switch self {
        case .parley: .parley
        case .relay, .durableRelay: .relay
        case .nats: .nats
        }
    }
}
