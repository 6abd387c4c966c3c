import Foundation
import ParleyCore
import ParleyProtocol

/// One WebSocket request as an operation handler sees it.
struct OperationRequest: Sendable {
    /// Who sent it.
    let session: AuthenticatedSession
    /// The connection it came on (to leave it out of events that echo its own change).
    let connection: ClientSession
    /// The frame's bytes; `parameters` decodes its `data` member.
    let frame: Data
    /// The `data` member if it was decoded with the frame (see `IncomingFrame`).
    var decoded: Result<any Sendable, ProtocolError>? = nil

    /// The `data` member as `T`; a missing or null `data` counts as `{}`.
    func parameters<T: Decodable>(_ type: T.Type) throws(ProtocolError) -> T {
        if let decoded, let value = try decoded.get() as? T { return value }
        do {
            if let value = try JSONDecoder().decode(OptionalData<T>.self, from: frame).data { return value }
            return try Self.fromEmptyObject(T.self)
        } catch {
            throw Self.describe(error)
        }
    }

    /// `T` decoded from `{}`: what a missing or null `data` means.
    static func fromEmptyObject<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data("{}".utf8))
    }

    private struct OptionalData<T: Decodable>: Decodable {
        var data: T?
    }

    static func describe(_ error: any Error) -> ProtocolError {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return ProtocolError(.missingField, "the field '\(key.stringValue)' is required", field: key.stringValue)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            let field = context.codingPath.last { $0.stringValue != "data" }?.stringValue
            return ProtocolError(.invalidField, "the field '\(field ?? "data")' has a wrong type or value", field: field)
        default:
            return ProtocolError(.badRequest, "the request's data is not what the operation expects")
        }
    }
}

/// An operation: decodes its parameters, does its work, returns the response's `data`.
typealias OperationHandler = @Sendable (OperationRequest) async throws(ProtocolError) -> any Encodable & Sendable

/// A hot operation (`Operations.loopTable`), started on its connection's loop: it answers
/// once through `reply`, on that loop, without a task of its own.
typealias LoopOperationHandler = @Sendable (OperationRequest, _ reply: @escaping @Sendable (Result<any Encodable & Sendable, ProtocolError>) -> Void) -> Void
