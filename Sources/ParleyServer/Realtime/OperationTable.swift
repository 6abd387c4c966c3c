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

/// A hot operation's answer: its result, or its `data` already encoded (the JSON the delivery
/// wrote for the event the operation caused).
enum OperationReply<Result: Encodable & Sendable>: Sendable {
    case value(Result)
    case encoded([UInt8])
}

/// The server's WebSocket operations by name, each with its handler: built once at start by
/// an `OperationTableBuilder`, then only read.
struct OperationTable: Sendable {
    /// How an operation runs, with its parameters decoded and its answer encoded around it.
    enum Handler: Sendable {
        /// As a task on the task pool; returns the response frame.
        case task(@Sendable (OperationContext, RequestEnvelope, Data) async -> [UInt8])
        /// On the connection's loop, without a task: short work that never blocks (the store's
        /// writer hands its outcome back to the loop). `reply` gets the response frame once,
        /// on the loop.
        case loop(@Sendable (OperationContext, RequestEnvelope, Data, _ reply: @escaping @Sendable ([UInt8]) -> Void) -> Void)
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

/// Collects the handlers of `OperationTable`, one per `Operation` type: parameters decoded as
/// the type says (`FrameReader`), results encoded as it says (`FrameWriter`), so a handler
/// deals in typed values only.
final class OperationTableBuilder {
    private var handlers: [String: OperationTable.Handler] = [:]

    /// Registers a handler run as a task.
    func on<O: APIOperation>(_ operation: O.Type,
                          _ body: @escaping @Sendable (OperationContext, O.Parameters) async throws(ProtocolError) -> O.Result) {
        add(O.name, .task { context, envelope, frame in
            do throws(ProtocolError) {
                let parameters = try FrameReader.parameters(O.Parameters.self, in: frame, envelope)
                return FrameWriter.success(envelope.id, try await body(context, parameters))
            } catch {
                return FrameWriter.failure(envelope.id, error)
            }
        })
    }

    /// Registers a hot handler run on the connection's loop (see `OperationTable.Handler.loop`).
    func onLoop<O: APIOperation>(_ operation: O.Type,
                              _ body: @escaping @Sendable (OperationContext, O.Parameters,
                                                           _ reply: @escaping @Sendable (Result<OperationReply<O.Result>, ProtocolError>) -> Void) -> Void) {
        add(O.name, .loop { context, envelope, frame, reply in
            let parameters: O.Parameters
            do throws(ProtocolError) {
                parameters = try FrameReader.parameters(O.Parameters.self, in: frame, envelope)
            } catch {
                reply(FrameWriter.failure(envelope.id, error))
                return
            }
            body(context, parameters) { outcome in
                switch outcome {
                case .success(.value(let result)): reply(FrameWriter.success(envelope.id, result))
                case .success(.encoded(let json)): reply(FrameWriter.success(envelope.id, dataJSON: json))
                case .failure(let error): reply(FrameWriter.failure(envelope.id, error))
                }
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
