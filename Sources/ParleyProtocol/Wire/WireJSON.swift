public import Foundation

/// The one JSON configuration of the wire: what the server writes and what clients send.
public enum WireJSON {
    /// An encoder as the protocol writes JSON (`/` not escaped, as `JSONWriter` does).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// `value` as JSON bytes: a text `Message` and `message.send`'s parameters written by
    /// hand (`MessageJSON`, `SendParameters.json()`), anything else by `JSONEncoder`; nil if
    /// it cannot be encoded.
    public static func encode<T: Encodable>(_ value: T) -> [UInt8]? {
        if let message = value as? Message, let json = MessageJSON.json(message) { return json }
        if let send = value as? SendParameters { return send.json() }
        return (try? encoder().encode(value)).map(Array.init)
    }
}
