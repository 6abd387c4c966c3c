import Foundation
import ParleyCore
import ParleyProtocol

/// What an operation's handler knows of its request.
struct OperationContext: Sendable {
    /// Who sent it, as the connection keeps it.
    let signedIn: SignedInSession
    /// The connection it came on (to leave it out of events that echo its own change).
    let connection: ClientSession

    var user: UserID { signedIn.userID }
    /// The sign-in session it came in (makes the session id's text: for the few operations
    /// that need it).
    var session: AuthenticatedSession { signedIn.authenticated }
}

/// The server's WebSocket operations by name, each with its handler: built once at start by
/// an `OperationTableBuilder`, then only read.
struct OperationTable: Sendable {
    /// How an operation runs: its parameters decoded, the work done, the answer encoded.
    enum Handler: Sendable {
        /// As a task on the global pool, so decoding, the services and encoding a large
        /// answer cost the loop nothing; returns the response frame's text. `run` runs on its
        /// caller's executor (`nonisolated(nonsending)`): `ClientSession` calls it from
        /// `@concurrent` code.
        case task(run: nonisolated(nonsending) @Sendable (OperationContext, RequestEnvelope, [UInt8]) async -> [UInt8])
        /// With no task (the hot `message.send`): started on the connection's loop, inside
        /// its session, it calls its `OperationAnswer` once, back on that loop (the store's
        /// writer hands the commit's outcome there in one hop), or at once for a refusal found
        /// before any wait.
        case completion(@Sendable (OperationContext, RequestEnvelope, [UInt8], OperationAnswer) -> Void)
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
    func on<O: APIOperation>(_ operation: O.Type,
                             _ body: nonisolated(nonsending) @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> O.Result) {
        add(O.name, .task { context, envelope, frame in
            do throws(ProtocolError) {
                let parameters = try FrameReader.parameters(O.Parameters.self, in: frame, envelope)
                return FrameWriter.success(envelope.id, try await body(context, parameters))
            } catch {
                return FrameWriter.failure(envelope.id, error)
            }
        })
    }

    /// Registers the handler of an operation that answers with success alone (an empty
    /// `data`): the handler only acts, or throws.
    func onCommand<O: APIOperation>(_ operation: O.Type,
                                    _ body: nonisolated(nonsending) @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> Void)
        where O.Result == EmptyPayload {
        on(operation) { context, parameters throws(ProtocolError) in
            try await body(context, parameters)
            return EmptyPayload()
        }
    }

    /// Registers an operation that runs with no task (the hot `message.send`): its parameters
    /// are decoded on the connection's loop, and `body` starts the work there and calls its
    /// answer once, back on the loop, with the result's `data` JSON or a refusal.
    func onCompletion<O: APIOperation>(_ operation: O.Type,
                                       _ body: @escaping @Sendable (OperationContext, O.Parameters, OperationAnswer) -> Void) {
        add(O.name, .completion { context, envelope, frame, answer in
            let parameters: O.Parameters
            do throws(ProtocolError) {
                parameters = try FrameReader.parameters(O.Parameters.self, in: frame, envelope)
            } catch {
                answer(.failure(error))
                return
            }
            body(context, parameters, answer)
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
