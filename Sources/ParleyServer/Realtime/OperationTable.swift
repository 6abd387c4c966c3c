import Foundation
import ParleyCore
import ParleyProtocol

/// What an operation's handler knows of its request.
struct OperationContext: Sendable {
    /// Who sent it.
    let session: AuthenticatedSession
    /// The connection it came on (to leave it out of events that echo its own change).
    let connection: ClientSession

    var user: UserID { session.userID }
}

/// An operation's answer: its result, or its `data` already encoded (the JSON the delivery
/// wrote for the event the operation caused).
enum OperationReply<Result: Encodable & Sendable>: Sendable {
    case value(Result)
    case encoded([UInt8])
}

/// The server's WebSocket operations by name, each with its handler: built once at start by
/// an `OperationTableBuilder`, then only read.
struct OperationTable: Sendable {
    /// How an operation runs: its parameters decoded, the work done, the answer encoded.
    struct Handler: Sendable {
        /// Whether the handler runs on the connection's loop, inside its session (short work
        /// that never blocks, such as `message.send`, whose only wait is the store's commit):
        /// it starts at once and resumes there without a hop or a wake-up of the global pool.
        /// Others run on the pool, so decoding and encoding large answers costs the loop
        /// nothing.
        let runsOnLoop: Bool
        /// Returns the response frame. Runs on its caller's executor (`nonisolated(nonsending)`),
        /// which `ClientSession` picks by `runsOnLoop`.
        let run: nonisolated(nonsending) @Sendable (OperationContext, RequestEnvelope, Data) async -> [UInt8]
    }

    private let handlers: [String: Handler]

    fileprivate init(handlers: [String: Handler]) {
        self.handlers = handlers
    }

    /// The handler of the operation named `op`.
    subscript(op: String) -> Handler? { handlers[op] }

    /// Every operation's name.
    var names: [String] { handlers.keys.sorted() }
}

/// Collects the handlers of `OperationTable`, one per `APIOperation` type: parameters decoded
/// as the type says (`FrameReader`), results encoded as it says (`FrameWriter`), so a handler
/// deals in typed values only.
final class OperationTableBuilder {
    private var handlers: [String: OperationTable.Handler] = [:]

    /// Registers the handler of `operation`.
    func on<O: APIOperation>(_ operation: O.Type, onLoop: Bool = false,
                             _ body: nonisolated(nonsending) @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> O.Result) {
        onEncoded(operation, onLoop: onLoop) { context, parameters throws(ProtocolError) in .value(try await body(context, parameters)) }
    }

    /// Registers the handler of an operation that answers with success alone (an empty
    /// `data`): the handler only acts, or throws.
    func onCommand<O: APIOperation>(_ operation: O.Type, onLoop: Bool = false,
                                    _ body: nonisolated(nonsending) @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> Void)
        where O.Result == EmptyPayload {
        on(operation, onLoop: onLoop) { context, parameters throws(ProtocolError) in
            try await body(context, parameters)
            return EmptyPayload()
        }
    }

    /// Registers a handler that may answer with its result's JSON already encoded.
    func onEncoded<O: APIOperation>(_ operation: O.Type, onLoop: Bool = false,
                                    _ body: nonisolated(nonsending) @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> OperationReply<O.Result>) {
        add(O.name, OperationTable.Handler(runsOnLoop: onLoop) { context, envelope, frame in
            do throws(ProtocolError) {
                let parameters = try FrameReader.parameters(O.Parameters.self, in: frame, envelope)
                switch try await body(context, parameters) {
                case .value(let result): return FrameWriter.success(envelope.id, result)
                case .encoded(let json): return FrameWriter.success(envelope.id, dataJSON: json)
                }
            } catch {
                return FrameWriter.failure(envelope.id, error)
            }
        })
    }

    /// The table; the builder is done with.
    func build() -> OperationTable {
        OperationTable(handlers: handlers)
    }

    private func add(_ name: String, _ handler: OperationTable.Handler) {
        precondition(handlers[name] == nil, "the operation \(name) is registered twice")
        handlers[name] = handler
    }
}
