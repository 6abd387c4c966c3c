/// Serializes request heads, for the WebSocket client's upgrade request.
public enum HTTPRequestEncoder {
    /// The request line and headers, ending with the blank line.
    public static func encodeHead(_ head: HTTPRequestHead) -> [UInt8] {
        var text = "\(head.method.rawValue) \(head.uri) \(head.version)\r\n"
        for field in head.headers {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}
