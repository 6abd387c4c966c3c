/// Writes and reads the few frames of Parley's native protocol that the load sends and
/// measures, without a JSON library on the hot path: requests are built as text, and replies
/// and events are recognised by their fixed beginnings (the server writes `{"id":…,"ok":…`
/// and `{"event":"…","data":…}`, docs/protocol.md).
enum ParleyFrames {
    /// A `message.send` whose request id is the send time, so the acknowledgement carries the
    /// time back; `clientId` must be unique per sender.
    static func send(sentAt: UInt64, conversation: String, clientID: String, text: String) -> String {
        "{\"id\":\(sentAt),\"op\":\"message.send\",\"data\":{\"conversationId\":\"\(conversation)\","
            + "\"clientId\":\"\(clientID)\",\"kind\":\"text\",\"text\":\"\(text)\"}}"
    }

    private static let responsePrefix = Array("{\"id\":".utf8)
    private static let eventPrefix = Array("{\"event\":\"".utf8)
    private static let messageNew = Array("message.new\"".utf8)
    private static let okTrue = Array(",\"ok\":true".utf8)

    /// What a text frame from the server means to the load.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Incoming {
        if starts(bytes, with: eventPrefix, at: 0) {
            guard starts(bytes, with: messageNew, at: eventPrefix.count) else { return .ignored }
            // System messages (friend_added, member_joined) carry no stamp.
            guard let stamp = MessageStamp.find(in: bytes) else { return .ignored }
            return .delivery(sentAt: stamp.sentAt, step: stamp.step)
        }
        guard starts(bytes, with: responsePrefix, at: 0), bytes.count > responsePrefix.count else {
            return .malformed("neither a response nor an event")
        }
        var index = responsePrefix.count
        if bytes[index] == UInt8(ascii: "\"") {
            // A setup request's string id.
            index += 1
            let start = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "\"") { index += 1 }
            guard index < bytes.count else { return .malformed("unterminated id") }
            let id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return .reply(id: id, ok: starts(bytes, with: okTrue, at: index + 1))
        }
        var sentAt: UInt64 = 0
        var digits = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            sentAt = sentAt &* 10 &+ UInt64(digit)
            index += 1
            digits += 1
        }
        guard digits > 0 else {
            // `"id":null`: the server could not read the request at all.
            return .refused(errorCode(bytes) ?? "unreadable request")
        }
        if starts(bytes, with: okTrue, at: index) { return .ack(sentAt: sentAt) }
        return .refused(errorCode(bytes) ?? "refused")
    }

    /// The `code` of an error response, for the error tally.
    static func errorCode(_ bytes: UnsafeRawBufferPointer) -> String? {
        let marker = Array("\"code\":\"".utf8)
        var index = 0
        while index + marker.count < bytes.count {
            if starts(bytes, with: marker, at: index) {
                let start = index + marker.count
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += 1 }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        for (index, byte) in prefix.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }
}
