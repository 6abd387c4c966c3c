/// A statement parameter as it is sent to the server. Everything but bytes goes in
/// PostgreSQL's text format, which the server parses into whatever type the statement's
/// context gives the parameter; bytes go in binary format, so `bytea` values (token and
/// code hashes) arrive exactly, whatever they contain.
enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case bytes([UInt8])
}

/// A Swift value that can be bound to a statement parameter (`$1`, `$2`, ...).
protocol PostgresBindable {
    var postgresValue: PostgresValue { get }
}

extension String: PostgresBindable {
    var postgresValue: PostgresValue { .text(self) }
}

extension Int64: PostgresBindable {
    var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int: PostgresBindable {
    var postgresValue: PostgresValue { .text(String(self)) }
}

extension Bool: PostgresBindable {
    var postgresValue: PostgresValue { .text(self ? "t" : "f") }
}

extension Array: PostgresBindable where Element == UInt8 {
    var postgresValue: PostgresValue { .bytes(self) }
}

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}
