public import Foundation

/// A request frame's envelope: its id, its operation, and where its `data` lies in the frame
/// (nil when there is none or it is `null`, which an operation reads as `{}`). A range that
/// is the whole frame means the hand-written reader could not place it: `data` is then read
/// from the frame's member by `JSONDecoder` (a value inside an object never spans the frame).
public struct RequestEnvelope: Sendable, Equatable {
    public let id: RequestID
    public let op: String
    public let data: Range<Int>?
    /// The operation's parameters when the envelope's pass read them itself (`op` before
    /// `data`, an operation with a hand-written reader, the plain shape); nil otherwise.
    public let parameters: PreReadParameters?

    public init(id: RequestID, op: String, data: Range<Int>?, parameters: PreReadParameters? = nil) {
        self.id = id
        self.op = op
        self.data = data
        self.parameters = parameters
    }
}

/// A frame from the server as a client reads it: a response (`id`, `ok`, and the range of
/// `data` or the `error`) or an event (its name and the range of `data`).
public enum ServerFrame: Sendable, Equatable {
    case response(id: RequestID?, result: Result<Range<Int>?, ProtocolError>)
    case event(name: String, data: Range<Int>?)
}

/// Reads the frames of the WebSocket protocol: requests on the server, responses and events
/// on clients. The envelope is read by hand (`JSONScanner`), and `data` is decoded as the
/// operation's type on its own, by hand for the hot `message.send` and by `JSONDecoder`
/// otherwise; any frame the hand-written reader is not sure of is read by `JSONDecoder`
/// whole, which also words every error. `message.send`'s parameters are read by the
/// envelope's own pass when `op` comes before `data` (`PreReadParameters`), so its strings
/// are walked once.
public enum FrameReader {
    // MARK: Requests

    /// The envelope of a request frame (its text's bytes), or `bad_request`. Requests are
    /// plain byte arrays on their way through the server: one allocation each and no
    /// exclusivity checks, where a `Data` makes two and checks its storage on each access;
    /// only `JSONDecoder`'s fallback takes a `Data` of them.
    public static func request(_ frame: [UInt8]) throws(ProtocolError) -> RequestEnvelope {
        if let envelope = frame.withUnsafeBytes({ scanRequest($0) }) { return envelope }
        do {
            let decoded = try JSONDecoder().decode(DecodedRequest.self, from: Data(frame))
            // The data's range is found again by the scanner only if it can: otherwise the
            // whole frame is decoded again for it (`parameters`).
            return RequestEnvelope(id: decoded.id, op: decoded.op, data: decoded.hasData ? 0..<frame.count : nil)
        } catch {
            throw ProtocolError(.badRequest, "a request is a JSON object with an id and an op")
        }
    }

    /// The request's `data` as `type`, with the protocol's errors for what is wrong with it.
    /// Inlinable, so that the caller's copy, specialized for its operation, takes parameters
    /// the envelope's pass read (`message.send`'s) with no generic metadata looked up at run
    /// time (the `Optional`s of an unspecialized generic cost ≈ 1,800 instructions a send).
    @inlinable
    public static func parameters<P: Decodable & Sendable>(_ type: P.Type, in frame: [UInt8], _ envelope: RequestEnvelope) throws(ProtocolError) -> P {
        if let read = envelope.parameters?.value(as: type) {
            return read
        }
        return try readParameters(type, in: frame, envelope)
    }

    /// `data` read in a pass of its own: the envelope did not read it.
    @usableFromInline
    static func readParameters<P: Decodable & Sendable>(_ type: P.Type, in frame: [UInt8], _ envelope: RequestEnvelope) throws(ProtocolError) -> P {
        guard let range = envelope.data else {
            return try decodeEmptyObject(type)
        }
        if range == 0..<frame.count {
            // The envelope came from JSONDecoder: read `data` from the whole frame.
            do {
                return try JSONDecoder().decode(WholeFrameData<P>.self, from: Data(frame)).data ?? decodeEmptyObject(type)
            } catch let error as ProtocolError {
                throw error
            } catch {
                throw describe(error)
            }
        }
        if let fast = type as? any FastJSONReadable.Type, let value = scan(fast, as: type, in: frame, range) {
            return value
        }
        do {
            return try JSONDecoder().decode(type, from: Data(frame[range]))
        } catch {
            throw describe(error)
        }
    }

    /// `data` at `range` read by `Fast`'s hand-written reader, as `P` (the same type); nil when
    /// the reader is not sure. Generic over both, so the value is never boxed in an existential
    /// on its way out (`message.send`'s parameters, on every send).
    private static func scan<Fast: FastJSONReadable, P>(_ fast: Fast.Type, as type: P.Type, in frame: [UInt8], _ range: Range<Int>) -> P? {
        frame.withUnsafeBufferPointer { bytes -> P? in
            var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: bytes[range]))
            guard let value = Fast(scanning: &scanner), scanner.atEnd() else { return nil }
            return value as? P
        }
    }

    /// `type` decoded from `{}`: what a missing or null `data` means.
    static func decodeEmptyObject<P: Decodable>(_ type: P.Type) throws(ProtocolError) -> P {
        do {
            return try JSONDecoder().decode(type, from: Data("{}".utf8))
        } catch {
            throw describe(error)
        }
    }

    /// A decoding failure as the protocol's error, naming the field at fault.
    public static func describe(_ error: any Error) -> ProtocolError {
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

    /// The envelope by hand; nil when the scanner is not sure (the caller asks JSONDecoder).
    /// When `op` came first, `data` is read as its parameters in the same pass if the
    /// operation has a reader of its own (`PreReadParameters`); if that reader is not sure,
    /// `data` is skipped as for any other operation and read again by `parameters`.
    static func scanRequest(_ raw: UnsafeRawBufferPointer) -> RequestEnvelope? {
        var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
        var id: RequestID?
        var op: String?
        var data: Range<Int>??
        var parameters: PreReadParameters?
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where id == nil:
                id = scanner.requestID()
                return id != nil
            case "op" where op == nil:
                op = scanner.string()
                return op != nil
            case "data" where data == nil:
                if scanner.takeNull() {
                    data = .some(nil)
                    return true
                }
                let start = scanner.index
                if let op, let read = PreReadParameters(op: op, scanning: &scanner) {
                    parameters = read
                } else {
                    scanner.index = start
                    guard scanner.skipValue() else { return false }
                }
                data = .some(start..<scanner.index)
                return true
            default:
                return false
            }
        }
        guard complete, scanner.atEnd(), let id, let op else { return nil }
        return RequestEnvelope(id: id, op: op, data: data ?? nil, parameters: parameters)
    }

    // MARK: Server frames (clients)

    /// A frame from the server, or nil for one that is neither a response nor an event.
    public static func serverFrame(_ frame: Data) -> ServerFrame? {
        if let read = frame.withUnsafeBytes({ scanServerFrame($0) }) { return read }
        guard let decoded = try? JSONDecoder().decode(DecodedServerFrame.self, from: frame) else { return nil }
        if let name = decoded.event { return .event(name: name, data: decoded.hasData ? 0..<frame.count : nil) }
        guard let ok = decoded.ok else { return nil }
        return .response(id: decoded.id, result: ok ? .success(decoded.hasData ? 0..<frame.count : nil)
                                                    : .failure(decoded.error ?? ProtocolError(.internalError, "a refusal without an error object")))
    }

    /// A response's or event's `data` as `type`.
    public static func data<P: Decodable>(_ type: P.Type, in frame: Data, _ range: Range<Int>?) throws -> P {
        guard let range else { return try JSONDecoder().decode(type, from: Data("{}".utf8)) }
        if range == 0..<frame.count {
            return try JSONDecoder().decode(WholeFrameData<P>.self, from: frame).data ?? JSONDecoder().decode(type, from: Data("{}".utf8))
        }
        return try JSONDecoder().decode(type, from: frame.subdata(in: range))
    }

    static func scanServerFrame(_ raw: UnsafeRawBufferPointer) -> ServerFrame? {
        var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
        var id: RequestID??
        var ok: Bool?
        var event: String?
        var data: Range<Int>??
        var errorRange: Range<Int>?
        let complete = scanner.object { key, scanner in
            switch key {
            case "id" where id == nil:
                if scanner.takeNull() {
                    id = .some(nil)
                    return true
                }
                guard let read = scanner.requestID() else { return false }
                id = .some(read)
                return true
            case "ok" where ok == nil:
                ok = scanner.bool()
                return ok != nil
            case "event" where event == nil:
                event = scanner.string()
                return event != nil
            case "data" where data == nil:
                let start = scanner.index
                guard scanner.skipValue() else { return false }
                data = .some(start..<scanner.index)
                return true
            case "error" where errorRange == nil:
                let start = scanner.index
                guard scanner.skipValue() else { return false }
                errorRange = start..<scanner.index
                return true
            default:
                return false
            }
        }
        guard complete, scanner.atEnd() else { return nil }
        if let event { return .event(name: event, data: data ?? nil) }
        guard let ok else { return nil }
        if ok { return .response(id: id ?? nil, result: .success(data ?? nil)) }
        let error = errorRange.flatMap { range in
            try? JSONDecoder().decode(ProtocolError.self, from: Data(UnsafeRawBufferPointer(rebasing: raw[range])))
        }
        return .response(id: id ?? nil, result: .failure(error ?? ProtocolError(.internalError, "a refusal without an error object")))
    }

    // MARK: JSONDecoder shapes

    private struct DecodedRequest: Decodable {
        let id: RequestID
        let op: String
        let hasData: Bool
        private enum CodingKeys: String, CodingKey { case id, op, data }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(RequestID.self, forKey: .id)
            op = try container.decode(String.self, forKey: .op)
            hasData = try container.contains(.data) && !container.decodeNil(forKey: .data)
        }
    }

    private struct DecodedServerFrame: Decodable {
        let id: RequestID?
        let ok: Bool?
        let event: String?
        let error: ProtocolError?
        let hasData: Bool
        private enum CodingKeys: String, CodingKey { case id, ok, event, error, data }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(RequestID.self, forKey: .id)
            ok = try container.decodeIfPresent(Bool.self, forKey: .ok)
            event = try container.decodeIfPresent(String.self, forKey: .event)
            error = try container.decodeIfPresent(ProtocolError.self, forKey: .error)
            hasData = try container.contains(.data) && !container.decodeNil(forKey: .data)
        }
    }

    private struct WholeFrameData<P: Decodable>: Decodable {
        let data: P?
    }
}

/// A parameter type with a hand-written reader for the hot path; the reader returns nil for
/// anything but the plain shape, and `JSONDecoder` then decodes the value as usual.
protocol FastJSONReadable: Sendable {
    init?(scanning scanner: inout JSONScanner)
}
