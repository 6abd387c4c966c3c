/// One copy of `TCPConnectionOptions` for every connection a server accepts: the options are
/// the same for all of them, and each connection holding its own copy cost 80 bytes a
/// connection. A connection keeps only its idle timeout apart, which it may change.
final class SharedConnectionOptions: Sendable {
    let value: TCPConnectionOptions

    init(_ value: TCPConnectionOptions) {
        self.value = value
    }
}
