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

    /// The JSON object for `message` as UTF-8, or nil if it is not a plain text message: its
    /// size counted first, then written once into an array of exactly that size (an array
    /// grown by appends checked its capacity and uniqueness for each of the object's ≈ 20
    /// pieces; docs/benchmarks.md, (ap)).
    public static func json(_ message: Message) -> [UInt8]? {
        guard let count = count(message) else { return nil }
        return JSONCursor.array(count: count) { write(message, to: &$0) }
    }

    /// Whether `message` is one this writer writes: a text message with no attachment,
    /// notice or action state. Each part is looked at where it is (`isAbsent`): `part == nil`
    /// took a copy of the part first (its strings retained and released), ≈ 1,000
    /// instructions a message for parts that are all absent (docs/benchmarks.md, (ap)).
    private static func isPlain(_ message: borrowing Message) -> Bool {
        isAbsent(message.image) && isAbsent(message.voice) && isAbsent(message.file) && isAbsent(message.system)
            && isAbsent(message.replyTo) && isAbsent(message.mentions) && isAbsent(message.mentionsAll)
            && isAbsent(message.forwarded) && isAbsent(message.editedAt) && isAbsent(message.recalled)
            && isAbsent(message.reactions) && isAbsent(message.hidden) && isAbsent(message.listenedBy)
    }

    @inline(__always)
    private static func isAbsent<Part>(_ part: borrowing Part?) -> Bool {
        part == nil
    }

    /// The bytes of `message`'s JSON object, or nil if it is not a plain text message.
    private static func count(_ message: Message) -> Int? {
        guard isPlain(message) else { return nil }
        // The keys and punctuation of every object: `{"id":,"conversationId":"","seq":,"kind":,"createdAt":}`.
        var count = 55
        count += JSONWriter.stringCount(message.id)
        count += JSONWriter.decimalCount(message.conversationId.rawValue)
        count += JSONWriter.decimalCount(message.seq)
        if let sender = message.sender { count += 12 + JSONWriter.decimalCount(sender.rawValue) } // ,"sender":""
        if let clientId = message.clientId { count += 12 + JSONWriter.stringCount(clientId) }     // ,"clientId":
        count += JSONWriter.stringCount(message.kind.rawValue)
        if let text = message.text { count += 8 + JSONWriter.stringCount(text) }                  // ,"text":
        count += JSONWriter.decimalCount(message.createdAt)
        return count
    }

    /// Writes the JSON object of a plain text message (`count` bytes).
    private static func write(_ message: Message, to out: inout JSONCursor) {
        out.literal(#"{"id":"#)
        out.string(message.id)
        out.literal(#","conversationId":""#)
        out.decimal(message.conversationId.rawValue)
        out.literal(#"","seq":"#)
        out.decimal(message.seq)
        if let sender = message.sender {
            out.literal(#","sender":""#)
            out.decimal(sender.rawValue)
            out.byte(UInt8(ascii: "\""))
        }
        if let clientId = message.clientId {
            out.literal(#","clientId":"#)
            out.string(clientId)
        }
        out.literal(#","kind":"#)
        out.string(message.kind.rawValue)
        if let text = message.text {
            out.literal(#","text":"#)
            out.string(text)
        }
        out.literal(#","createdAt":"#)
        out.decimal(message.createdAt)
        out.byte(UInt8(ascii: "}"))
    }
}
