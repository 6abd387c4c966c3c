/// A hand-written JSON encoder for the one payload on the hot path: a text `Message`, carried
/// by the `message.send` response and the `message.new` event. Foundation's `JSONEncoder`
/// spent a large share of the server's time on these frames. A send writes the message's JSON
/// once: the hub writes it for the event and hands it to the sender's connection for the
/// response (the hub hands the bytes back to the sender's connection).
///
/// The output means the same as `JSONEncoder`'s (same keys, absent optionals left out, ids as
/// decimal strings, the same string escapes, `/` not escaped); tests decode both and compare.
/// Messages with an image, a system notice or an action's state (reply, mentions, edit,
/// recall, reactions) are left to `JSONEncoder` (`encode` returns nil).
public enum MessageJSON {
    /// The JSON object for `message`, or nil if it is not a plain text message.
    public static func encode(_ message: Message) -> String? {
        json(message).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The JSON object for `message` as UTF-8, or nil if it is not a plain text message.
    public static func json(_ message: Message) -> [UInt8]? {
        var out: [UInt8] = []
        return append(message, to: &out) ? out : nil
    }

    /// Appends the JSON object for `message` to `out`; false (and nothing appended) if it is
    /// not a plain text message.
    public static func append(_ message: Message, to out: inout [UInt8]) -> Bool {
        guard message.image == nil, message.voice == nil, message.file == nil, message.system == nil, !message.hasActionState else {
            return false
        }
        out.reserveCapacity(out.count + 160 + message.id.utf8.count + (message.text?.utf8.count ?? 0)
                            + (message.clientId?.utf8.count ?? 0))
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        JSONWriter.appendString(message.id, to: &out)
        JSONWriter.appendLiteral(#","conversationId":""#, to: &out)
        JSONWriter.appendDecimal(message.conversationId.rawValue, to: &out)
        JSONWriter.appendLiteral(#"","seq":"#, to: &out)
        JSONWriter.appendDecimal(message.seq, to: &out)
        if let sender = message.sender {
            JSONWriter.appendLiteral(#","sender":""#, to: &out)
            JSONWriter.appendDecimal(sender.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let clientId = message.clientId {
            JSONWriter.appendLiteral(#","clientId":"#, to: &out)
            JSONWriter.appendString(clientId, to: &out)
        }
        JSONWriter.appendLiteral(#","kind":"#, to: &out)
        JSONWriter.appendString(message.kind.rawValue, to: &out)
        if let text = message.text {
            JSONWriter.appendLiteral(#","text":"#, to: &out)
            JSONWriter.appendString(text, to: &out)
        }
        JSONWriter.appendLiteral(#","createdAt":"#, to: &out)
        JSONWriter.appendDecimal(message.createdAt, to: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }
}
