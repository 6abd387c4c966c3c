/// An operation's parameters read by the envelope's own pass over the request (one pass over
/// its strings instead of two): only when `op` comes before `data`, as every client of ours
/// writes it, and only for an operation with a hand-written reader (`FastJSONReadable`).
/// The values are those that reader gives on its own; anything it is not sure of is left, as
/// before, to `FrameReader.parameters`' second pass and `JSONDecoder`, which word the errors.
public enum PreReadParameters: Sendable, Equatable {
    /// `message.send`'s.
    case send(SendParameters)

    /// `op`'s parameters read at the scanner's position; nil when `op` has no reader of its own
    /// or the reader is not sure (the scanner's position is then anywhere: the caller resets it).
    init?(op: String, scanning scanner: inout JSONScanner) {
        switch op {
        case Op.MessageSend.name:
            guard let parameters = SendParameters(scanning: &scanner) else { return nil }
            self = .send(parameters)
        default:
            return nil
        }
    }

    /// The parameters as `type`, nil when they are another operation's (inlinable: in a
    /// caller specialized for `message.send` the cast is no cast at all).
    @inlinable
    func value<P>(as type: P.Type) -> P? {
        switch self {
        case .send(let parameters): parameters as? P
        }
    }
}
