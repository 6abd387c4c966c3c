import ParleyProtocol
import Glibc

/// Writes and reads the few frames of Parley's native protocol that the load sends and
/// measures, without a JSON library on the hot path: requests are built as text, and replies
/// and events are recognised by their fixed beginnings (the server writes `{"id":…,"ok":…`
/// and `{"event":"…","data":…}`, docs/protocol.md).
enum ParleyFrames {
    /// A `message.send` whose request id is the send time, so the acknowledgement carries the
    /// time back; `clientId` must be unique per sender.
    static func send(sentAt: UInt64, conversation: String, clientID: String, text: String) -> String {
        let parameters = SendParameters(conversationId: ConversationID(string: conversation) ?? ConversationID(0), clientId: clientID,
                                        kind: .text, text: text)
        return String(decoding: FrameWriter.request(op: Op.MessageSend.name, id: .number(Int64(sentAt)), dataJSON: parameters.json()),
                      as: UTF8.self)
    }

    /// A `message.edit` of `message` (measured like a send: the request id is the send time).
    static func edit(sentAt: UInt64, conversation: String, message: String, clientID: String, text: String) -> String {
        let parameters = EditParameters(conversationId: ConversationID(string: conversation) ?? ConversationID(0), messageId: message,
                                        clientId: clientID, text: text)
        return request(Op.MessageEdit.name, sentAt: sentAt, WireJSON.encode(parameters))
    }

    /// A `message.react` (or `message.unreact`) of 👍 on `message`.
    static func react(sentAt: UInt64, conversation: String, message: String, clientID: String, removing: Bool) -> String {
        let parameters = ReactParameters(conversationId: ConversationID(string: conversation) ?? ConversationID(0), messageId: message,
                                         clientId: clientID, emoji: "👍")
        return request(removing ? Op.MessageUnreact.name : Op.MessageReact.name, sentAt: sentAt, WireJSON.encode(parameters))
    }

    /// A signal the load sends without waiting for its answer (a typing notice, a read
    /// marker): its string id `id` marks the answer as one (see `BenchConnection.onSignalReply`).
    static func signal<O: APIOperation>(_ operation: O.Type, id: String, _ parameters: O.Parameters) -> String? {
        FrameWriter.request(operation, id: .string(id), parameters).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The seq of the message a `message.new` event carries (its first `"seq":` member: the
    /// message's own, written before any quoted message); nil for any other frame.
    static func newMessageSeq(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard starts(bytes, with: eventPrefix, at: 0), starts(bytes, with: messageNew, at: eventPrefix.count),
              let member = find(seqMember, anchor: 1, in: bytes, from: eventPrefix.count + messageNew.count) else { return nil }
        var index = member + seqMember.count
        var seq: Int64 = 0
        var digits = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10, digits < 18 {
            seq = seq * 10 + Int64(digit)
            index += 1
            digits += 1
        }
        return digits > 0 ? seq : nil
    }

    /// Whether `bytes` is the event `name` (`{"event":"name"…`).
    static func isEvent(_ bytes: UnsafeRawBufferPointer, named name: [UInt8]) -> Bool {
        starts(bytes, with: eventPrefix, at: 0) && starts(bytes, with: name, at: eventPrefix.count)
            && starts(bytes, with: [UInt8(ascii: "\"")], at: eventPrefix.count + name.count)
    }

    private static func request(_ op: String, sentAt: UInt64, _ data: [UInt8]?) -> String {
        String(decoding: FrameWriter.request(op: op, id: .number(Int64(sentAt)), dataJSON: data ?? Array("{}".utf8)), as: UTF8.self)
    }

    /// The server id of the message an acknowledged `message.send` stored (its answer's `data`
    /// begins `{"id":"…"`); nil for any other answer.
    static func sentMessageID(_ bytes: UnsafeRawBufferPointer) -> String? {
        let marker = Array("\"ok\":true,\"data\":{\"id\":\"".utf8)
        guard let start = find(marker, anchor: marker.count - 1, in: bytes, from: 0) else { return nil }
        var index = start + marker.count
        var id = ""
        while index < bytes.count, case let digit = bytes[index], digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
            id.append(Character(Unicode.Scalar(digit)))
            index += 1
        }
        return id.isEmpty || index >= bytes.count || bytes[index] != UInt8(ascii: "\"") ? nil : id
    }

    private static let responsePrefix = Array("{\"id\":".utf8)
    private static let eventPrefix = Array("{\"event\":\"".utf8)
    private static let messageNew = Array("message.new\"".utf8)
    private static let messageUpdated = Array("message.updated\"".utf8)
    /// An action's client id, which the load makes its stamp.
    private static let stampedClientID = Array("\"clientId\":\"b|".utf8)
    private static let okTrue = Array(",\"ok\":true".utf8)
    private static let seqMember = Array("\"seq\":".utf8)
    private static let kindText = Array("\"kind\":\"text\"".utf8)
    /// The `text` member and the first two bytes of a stamp (`b|`).
    private static let stampedText = Array("\"text\":\"b|".utf8)

    /// What a text frame from the server means to the load.
    ///
    /// Called for every delivery, so it only scans bytes (no JSON decoding, no allocation for
    /// a delivery): the event's name at its fixed place, then `"kind":"text"` and the stamp at
    /// the start of the `text` member, each found by `memchr` to a byte that is rare in these
    /// frames (`k`, `|`). A text message without a readable stamp is malformed (every text
    /// message in a run is the load's own); system messages are ignored. Inside a JSON string
    /// a quote is escaped, so neither pattern can match within another member's value.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Incoming {
        if starts(bytes, with: eventPrefix, at: 0) {
            if starts(bytes, with: messageUpdated, at: eventPrefix.count) {
                // A message action: the action event comes first, its client id the stamp.
                guard let member = find(stampedClientID, anchor: stampedClientID.count - 1, in: bytes, from: eventPrefix.count),
                      let stamp = MessageStamp.read(bytes, at: member + stampedClientID.count - 2) else { return .ignored }
                return .delivery(sentAt: stamp.sentAt, step: stamp.step)
            }
            guard starts(bytes, with: messageNew, at: eventPrefix.count) else { return .ignored }
            let body = eventPrefix.count + messageNew.count
            // System messages (friend_added, member_joined) are not text and carry no stamp.
            guard find(kindText, anchor: 1, in: bytes, from: body) != nil else { return .ignored }
            guard let member = find(stampedText, anchor: stampedText.count - 1, in: bytes, from: body),
                  let stamp = MessageStamp.read(bytes, at: member + stampedText.count - 2) else {
                return .malformed("text message without a stamp")
            }
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

    /// Where `needle` first occurs in `bytes` at or after `start`: `memchr` to each place of
    /// its byte at `anchor` (pick one that is rare in the haystack), then a comparison.
    static func find(_ needle: [UInt8], anchor: Int, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, anchor >= 0, anchor < needle.count, start >= 0 else { return nil }
        let byte = Int32(needle[anchor])
        let end = bytes.count - (needle.count - anchor - 1)
        var index = start + anchor
        while index < end {
            guard let hit = memchr(base + index, byte, end - index) else { return nil }
            let at = base.distance(to: UnsafeRawPointer(hit))
            if starts(bytes, with: needle, at: at - anchor) { return at - anchor }
            index = at + 1
        }
        return nil
    }

    static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= bytes.count else { return false }
        for (index, byte) in prefix.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }
}
