import Foundation
import ParleyProtocol

/// Builds the WebSocket frames' JSON text: responses and events around already-encoded data.
enum OperationCoding {
    /// The JSON of a response's or event's data as UTF-8, or nil if it cannot be encoded.
    static func json<T: Encodable>(_ value: T) -> [UInt8]? {
        // The hot frames (a text message, as the send's response and as `message.new`) skip
        // Foundation's encoder; see `MessageJSON`.
        if let message = value as? Message, let json = MessageJSON.json(message) { return json }
        guard let data = try? JSONCoding.encoder().encode(value) else { return nil }
        return Array(data)
    }

    private static func encode<T: Encodable>(_ value: T) -> String? {
        json(value).map { String(decoding: $0, as: UTF8.self) }
    }

    static func idJSON(_ id: RequestID?) -> String {
        var out: [UInt8] = []
        appendID(id, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Written by hand: every response has an id, and a JSONEncoder per response only for it is waste.
    private static func appendID(_ id: RequestID?, to out: inout [UInt8]) {
        switch id {
        case nil: MessageJSON.appendLiteral("null", to: &out)
        case .number(let number): MessageJSON.appendDecimal(number, to: &out)
        case .string(let text): MessageJSON.appendString(text, to: &out)
        }
    }

    /// `{"id":…,"ok":true,"data":…}`
    static func success<T: Encodable>(_ id: RequestID?, _ data: T) -> String {
        "{\"id\":\(idJSON(id)),\"ok\":true,\"data\":\(encode(data) ?? "{}")}"
    }

    /// `{"id":…,"ok":true,"data":…}` around data already encoded, as UTF-8.
    static func success(_ id: RequestID?, json data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 48)
        MessageJSON.appendLiteral(#"{"id":"#, to: &out)
        appendID(id, to: &out)
        MessageJSON.appendLiteral(#","ok":true,"data":"#, to: &out)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"id":…,"ok":false,"error":{…}}`
    static func failure(_ id: RequestID?, _ error: ProtocolError) -> String {
        "{\"id\":\(idJSON(id)),\"ok\":false,\"error\":\(encode(error) ?? "{}")}"
    }

    /// `{"event":…,"data":…}`
    static func event<T: Encodable>(_ name: String, _ data: T) -> String? {
        json(data).map { String(decoding: event(name, json: $0), as: UTF8.self) }
    }

    /// `{"event":…,"data":…}` around data already encoded, as UTF-8.
    static func event(_ name: String, json data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + name.utf8.count + 24)
        MessageJSON.appendLiteral(#"{"event":"#, to: &out)
        MessageJSON.appendString(name, to: &out)
        MessageJSON.appendLiteral(#","data":"#, to: &out)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
