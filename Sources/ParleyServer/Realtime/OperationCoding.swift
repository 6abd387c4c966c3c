import Foundation
import ParleyProtocol

/// Builds the WebSocket frames' JSON text: responses and events around already-encoded data.
enum OperationCoding {
    private static func encode<T: Encodable>(_ value: T) -> String? {
        // The hot frames (a text message, as the send's response and as `message.new`) skip
        // Foundation's encoder; see `MessageJSON`.
        if let message = value as? Message, let text = MessageJSON.encode(message) { return text }
        guard let data = try? JSONCoding.encoder().encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func idJSON(_ id: RequestID?) -> String {
        switch id {
        case nil: return "null"
        // Written by hand: every response has an id, and a JSONEncoder per response only for it is waste.
        case .number(let number): return String(number)
        case .string(let text):
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count + 2)
            MessageJSON.appendString(text, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `{"id":…,"ok":true,"data":…}`
    static func success<T: Encodable>(_ id: RequestID?, _ data: T) -> String {
        "{\"id\":\(idJSON(id)),\"ok\":true,\"data\":\(encode(data) ?? "{}")}"
    }

    /// `{"id":…,"ok":false,"error":{…}}`
    static func failure(_ id: RequestID?, _ error: ProtocolError) -> String {
        "{\"id\":\(idJSON(id)),\"ok\":false,\"error\":\(encode(error) ?? "{}")}"
    }

    /// `{"event":…,"data":…}`
    static func event<T: Encodable>(_ name: String, _ data: T) -> String? {
        guard let payload = encode(data) else { return nil }
        var quotedBytes: [UInt8] = []
        MessageJSON.appendString(name, to: &quotedBytes)
        let quoted = String(decoding: quotedBytes, as: UTF8.self)
        return "{\"event\":\(quoted),\"data\":\(payload)}"
    }
}
