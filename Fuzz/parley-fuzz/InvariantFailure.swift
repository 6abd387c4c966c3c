/// A broken invariant: what a harness expected and what it saw instead.
///
/// Harnesses throw this rather than trapping so the replay command can name the input and
/// go on with the others; the libFuzzer entry point turns it into an abort, which is what
/// makes libFuzzer save the input.
struct InvariantFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// Throws unless `condition` holds. `message` is built only on failure.
    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(InvariantFailure) {
        if !condition { throw InvariantFailure(message()) }
    }
}
