public import ParleyProtocol

/// The limit in force for every `TextField`, and the one check of free text: every service
/// that stores or relays user text (native protocol, HTTP, XMPP) validates it here.
public struct TextLimits: Sendable, Equatable {
    /// Each field's limit at its `position`: read on every send (the client id's and the
    /// text's), where a dictionary keyed by the field would hash its name's string each time.
    private var limits: [TextLimit]

    /// Every field at its default limit.
    public init() {
        limits = TextField.allCases.map(\.defaultLimit)
    }

    public subscript(field: TextField) -> TextLimit {
        get { limits[field.position] }
        set { limits[field.position] = newValue }
    }

    /// Refuses `text` when it is outside the field's limit or holds characters the field
    /// does not take. The error names the field and both bounds.
    public func validate(_ text: String, as field: TextField) throws(ProtocolError) {
        let limit = self[field]
        guard limit.allows(text) else {
            let range = limit.characters.lowerBound == 0 ? "at most \(limit.characters.upperBound)"
                : "\(limit.characters.lowerBound) to \(limit.characters.upperBound)"
            throw ProtocolError(field == .name ? .invalidName : .invalidField,
                                "\(field.noun) has \(range) characters and at most \(limit.bytes) bytes",
                                field: field.wireName)
        }
        // Multi-line fields keep line breaks and tabs; no field takes other control
        // characters, which nobody types and which JSON escapes at six bytes each.
        if Self.containsControlCharacter(text, allowingLineBreaks: !field.refusesControlCharacters) {
            throw ProtocolError(field == .name ? .invalidName : .invalidField,
                                field.refusesControlCharacters ? "\(field.noun) may not contain control characters"
                                    : "\(field.noun) may not contain control characters other than line breaks and tabs",
                                field: field.wireName)
        }
    }

    /// Whether `text` holds a control character (Unicode's Cc: C0, DEL and C1), found in its
    /// UTF-8 bytes: every send checks its text, and a byte scan costs nothing per scalar. C0
    /// and DEL are single bytes; C1 (U+0080–U+009F) is 0xC2 followed by 0x80–0x9F.
    static func containsControlCharacter(_ text: String, allowingLineBreaks: Bool) -> Bool {
        // A native string's bytes are contiguous: scanned as a buffer, not through the view's
        // index per byte (a bridged or shared string is copied first).
        text.utf8.withContiguousStorageIfAvailable { containsControlCharacter($0, allowingLineBreaks: allowingLineBreaks) }
            ?? Array(text.utf8).withUnsafeBufferPointer { containsControlCharacter($0, allowingLineBreaks: allowingLineBreaks) }
    }

    private static func containsControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>, allowingLineBreaks: Bool) -> Bool {
        // Eight bytes at a time while a word holds no byte below 0x20, no DEL and no 0xC2 (C1's
        // lead byte): most text is all such words. The first word that may hold one, and all
        // after it, are read byte by byte; a word skipped holds no 0xC2, so the byte before
        // the first one read is never a lead byte.
        var start = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while start + 8 <= bytes.count {
                let word = ByteWord(base, at: start)
                if word.hasByte(below: 0x20) || word.hasByte(0x7F) || word.hasByte(0xC2) { break }
                start += 8
            }
        }
        var previous: UInt8 = 0
        for byte in bytes[start...] {
            switch byte {
            case 0x0A, 0x0D, 0x09:
                if !allowingLineBreaks { return true }
            case 0x00..<0x20, 0x7F:
                return true
            case 0x80...0x9F where previous == 0xC2:
                return true
            default:
                break
            }
            previous = byte
        }
        return false
    }
}
