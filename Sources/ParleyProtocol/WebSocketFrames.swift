/// A request on the WebSocket: `{"id": "7", "op": "me.get", "data": {...}}`.
/// `id` is chosen by the client (a string or number, echoed back as sent). This reads the
/// envelope; `RequestData` reads the same bytes again as the operation's parameters.
public struct RequestFrame: Codable, Sendable {
    /// The client's request id.
    public var id: RequestID
    /// The operation name.
    public var op: String

    public init(id: RequestID, op: String) {
        self.id = id
        self.op = op
    }
}

/// The `data` member of a request, decoded as the operation's parameter type.
public struct RequestData<Parameters: Decodable>: Decodable {
    public var data: Parameters
}

/// A whole request, for clients that send them.
public struct OutgoingRequest<Parameters: Encodable & Sendable>: Encodable, Sendable {
    public var id: RequestID
    public var op: String
    public var data: Parameters
    public init(id: RequestID, op: String, data: Parameters) {
        self.id = id
        self.op = op
        self.data = data
    }
}

/// A request id as the client sent it: a string or an integer.
public enum RequestID: Codable, Sendable, Hashable {
    case string(String)
    case number(Int64)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        }
    }
}

/// The answer to one request: `{"id", "ok": true, "data"}` or `{"id", "ok": false, "error"}`.
public struct ResponseFrame<Payload: Encodable & Sendable>: Encodable, Sendable {
    public var id: RequestID?
    public var ok: Bool
    public var data: Payload?
    public var error: ProtocolError?

    /// A success carrying `data`.
    public static func success(_ id: RequestID?, _ data: Payload) -> ResponseFrame {
        ResponseFrame(id: id, ok: true, data: data, error: nil)
    }
}

extension ResponseFrame where Payload == EmptyPayload {
    /// A failure.
    public static func failure(_ id: RequestID?, _ error: ProtocolError) -> ResponseFrame {
        ResponseFrame(id: id, ok: false, data: nil, error: error)
    }
}

/// A server-pushed event: `{"event": "me.updated", "data": {...}}`; it has no `id`.
public struct EventFrame<Payload: Encodable & Sendable>: Encodable, Sendable {
    public var event: String
    public var data: Payload
    public init(event: String, data: Payload) {
        self.event = event
        self.data = data
    }
}

/// `{}`: the data of operations that return nothing.
public struct EmptyPayload: Codable, Sendable, Equatable {
    public init() {}
}

/// Parameters of the `auth` operation, the first frame on a WebSocket.
public struct AuthParameters: Codable, Sendable {
    public var token: String
    public init(token: String) { self.token = token }
}

/// Parameters of `user.get`.
public struct UserLookup: Codable, Sendable {
    public var id: UserID?
    public var username: String?
    public init(id: UserID? = nil, username: String? = nil) {
        self.id = id
        self.username = username
    }
}
