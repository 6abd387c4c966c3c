import ParleyLog

/// One message row as the send path inserted it into `messages`, as the segment log keeps
/// it: every column the insert sets (the others take their defaults), and whether the
/// sender's read marker moved with it, and whose delivered marker moved to it (the online
/// recipient of a 1:1 send with `--message-log-apply later`), so that recovery inserts
/// exactly the same row and moves the same markers through the same statements
/// (`SQLiteStoreWriter.insertMessageRow`).
///
/// Payload layout, little-endian: a flags byte (which optional fields follow; bit 4: read
/// by the sender), id i64, created at i64, sender i64 (if present), delivered-to i64 (if
/// present, bit 5), then kind, client id,
/// text and body as u32 byte counts and UTF-8 bytes (the optional ones if present). The
/// conversation and seq are the log record's own.
struct LoggedMessage: Equatable, Sendable {
    var conversation: Int64
    var seq: Int64
    var id: Int64
    var sender: Int64?
    var clientID: String?
    var kind: String
    var text: String?
    var body: String?
    var createdAt: Int64
    var markedReadBySender: Bool
    /// The recipient whose delivered marker moves to this message with its insert.
    var deliveredTo: Int64?

    private enum Flag {
        static let sender: UInt8 = 1
        static let clientID: UInt8 = 2
        static let text: UInt8 = 4
        static let body: UInt8 = 8
        static let markedRead: UInt8 = 16
        static let deliveredTo: UInt8 = 32
    }

    /// The log record of this row.
    var record: LogRecord {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40 + kind.utf8.count + (clientID?.utf8.count ?? 0) + (text?.utf8.count ?? 0) + (body?.utf8.count ?? 0))
        var flags: UInt8 = 0
        if sender != nil { flags |= Flag.sender }
        if clientID != nil { flags |= Flag.clientID }
        if text != nil { flags |= Flag.text }
        if body != nil { flags |= Flag.body }
        if markedReadBySender { flags |= Flag.markedRead }
        if deliveredTo != nil { flags |= Flag.deliveredTo }
        bytes.append(flags)
        Self.put(UInt64(bitPattern: id), 8, into: &bytes)
        Self.put(UInt64(bitPattern: createdAt), 8, into: &bytes)
        if let sender { Self.put(UInt64(bitPattern: sender), 8, into: &bytes) }
        if let deliveredTo { Self.put(UInt64(bitPattern: deliveredTo), 8, into: &bytes) }
        for string in [kind, clientID, text, body] {
            guard let string else { continue }
            Self.put(UInt64(string.utf8.count), 4, into: &bytes)
            bytes.append(contentsOf: string.utf8)
        }
        return LogRecord(conversation: UInt64(bitPattern: conversation), seq: UInt64(bitPattern: seq), payload: bytes)
    }

    /// The row a record holds, or nil if its payload is not one (damage the log's CRC
    /// did not catch, or a record written by something else).
    init?(record: LogRecord) {
        var reader = PayloadReader(bytes: record.payload)
        guard let flags = reader.byte(), let id = reader.integer(8), let createdAt = reader.integer(8) else { return nil }
        conversation = Int64(bitPattern: record.conversation)
        seq = Int64(bitPattern: record.seq)
        self.id = Int64(bitPattern: id)
        self.createdAt = Int64(bitPattern: createdAt)
        if flags & Flag.sender != 0 {
            guard let sender = reader.integer(8) else { return nil }
            self.sender = Int64(bitPattern: sender)
        }
        if flags & Flag.deliveredTo != 0 {
            guard let recipient = reader.integer(8) else { return nil }
            deliveredTo = Int64(bitPattern: recipient)
        }
        guard let kind = reader.string() else { return nil }
        self.kind = kind
        if flags & Flag.clientID != 0 { guard let value = reader.string() else { return nil }; clientID = value }
        if flags & Flag.text != 0 { guard let value = reader.string() else { return nil }; text = value }
        if flags & Flag.body != 0 { guard let value = reader.string() else { return nil }; body = value }
        markedReadBySender = flags & Flag.markedRead != 0
        guard reader.isAtEnd else { return nil }
    }

    init(conversation: Int64, seq: Int64, id: Int64, sender: Int64?, clientID: String?, kind: String, text: String?,
         body: String?, createdAt: Int64, markedReadBySender: Bool, deliveredTo: Int64? = nil) {
        self.conversation = conversation
        self.seq = seq
        self.id = id
        self.sender = sender
        self.clientID = clientID
        self.kind = kind
        self.text = text
        self.body = body
        self.createdAt = createdAt
        self.markedReadBySender = markedReadBySender
        self.deliveredTo = deliveredTo
    }

    private static func put(_ value: UInt64, _ count: Int, into bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// Reads a payload front to back; every read fails (nil) past the end.
    private struct PayloadReader {
        let bytes: [UInt8]
        var cursor = 0

        var isAtEnd: Bool { cursor == bytes.count }

        mutating func byte() -> UInt8? {
            guard cursor < bytes.count else { return nil }
            defer { cursor += 1 }
            return bytes[cursor]
        }

        mutating func integer(_ count: Int) -> UInt64? {
            guard count <= bytes.count - cursor else { return nil }
            var value: UInt64 = 0
            for index in 0..<count { value |= UInt64(bytes[cursor + index]) << (8 * UInt64(index)) }
            cursor += count
            return value
        }

        mutating func string() -> String? {
            guard let length = integer(4), Int(length) <= bytes.count - cursor else { return nil }
            defer { cursor += Int(length) }
            return String(decoding: bytes[cursor..<(cursor + Int(length))], as: UTF8.self)
        }
    }
}
