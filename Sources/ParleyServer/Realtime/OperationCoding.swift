import Foundation
import ParleyProtocol

/// Builds the WebSocket frames' JSON text: responses and events around already-encoded data.
enum OperationCoding {
    private static func encode<T: Encodable>(_ value: T) -> String? {
        guard let data = try? JSONCoding.encoder().encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func idJSON(_ id: RequestID?) -> String {
        guard let id, let text = encode(id) else { return "null" }
        return text
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
        guard let payload = encode(data), let quoted = encode(name) else { return nil }
        return "{\"event\":\(quoted),\"data\":\(payload)}"
    }
}
