/// One immutable copy of a value that many objects would otherwise each hold: a server's TCP
/// options for every connection it accepts (80 bytes a connection), its WebSocket options for
/// every WebSocket it upgrades (56 bytes). The holders keep a reference (8 bytes) and read
/// through it; whatever a holder may change (a connection's idle timeout) it keeps apart.
final class SharedValue<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
