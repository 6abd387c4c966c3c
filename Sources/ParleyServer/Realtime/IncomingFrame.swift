import Foundation
import ParleyProtocol

/// A request frame as the connection reads it: its id and operation, and for the hot
/// operations of `Operations.loopOperations` its `data` as well, in the same pass
/// (`message.send` in its plain shape is read by `SendFrameReader` instead). Other
/// operations decode their `data` from the frame later (`OperationRequest.parameters`).
struct IncomingFrame: Decodable {
    let id: RequestID
    let op: String
    /// The decoded `data` of a hot operation (or why it could not be decoded); nil for others.
    let parameters: Result<any Sendable, ProtocolError>?

    private enum CodingKeys: String, CodingKey {
        case id, op, data
    }

    init(id: RequestID, op: String, parameters: Result<any Sendable, ProtocolError>?) {
        self.id = id
        self.op = op
        self.parameters = parameters
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(RequestID.self, forKey: .id)
        op = try container.decode(String.self, forKey: .op)
        parameters = Operations.loopOperations[op].map { Self.data(as: $0, in: container) }
    }

    /// The `data` member as `T`, with the same rules and errors as `OperationRequest.parameters`:
    /// a missing or null `data` counts as `{}`.
    private static func data<T: Decodable & Sendable>(as type: T.Type, in container: KeyedDecodingContainer<CodingKeys>)
        -> Result<any Sendable, ProtocolError> {
        do {
            if let value = try container.decodeIfPresent(T.self, forKey: .data) { return .success(value) }
            return .success(try OperationRequest.fromEmptyObject(T.self))
        } catch {
            return .failure(OperationRequest.describe(error))
        }
    }
}
