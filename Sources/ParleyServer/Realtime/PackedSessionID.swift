/// A sign-in session's id as a connection keeps it for its whole life: the ids the server
/// makes (16 random bytes as 22 characters of URL-safe Base64 without padding) as those 16
/// bytes inline, anything else as its text.
///
/// Why: a 22-character `String` is a heap object of its own (55 bytes, a 64-byte malloc
/// chunk) held by every signed-in WebSocket only to answer "was this connection signed in
/// with the session just revoked?". Packed, it lives inside the `ClientSession`.
///
/// Invariant: `.random` holds exactly the ids whose text `init(_:)` packs, so two ids are
/// equal as values exactly when their texts are equal.
enum PackedSessionID: Sendable, Equatable {
    /// The 16 bytes behind a canonical 22-character URL-safe Base64 id, big-endian halves.
    case random(UInt64, UInt64)
    /// Any other id, kept as it came (ids made by other means, tests' ids).
    case text(String)

    /// How many characters an id of 16 bytes has in URL-safe Base64 without padding.
    static let randomIDCharacters = 22

    /// Packs `id` when it is the canonical Base64 form of 16 bytes, else keeps its text.
    init(_ id: String) {
        self = Self.packed(id.utf8).map { .random($0.high, $0.low) } ?? .text(id)
    }

    /// The id's text, as the store and the other services know it (allocates for `.random`).
    var string: String {
        switch self {
        case .text(let text):
            return text
        case .random(let high, let low):
            return String(unsafeUninitializedCapacity: Self.randomIDCharacters) { buffer in
                // 128 bits, then the 4 zero bits that pad them to 22 characters of 6 bits.
                for index in 0..<Self.randomIDCharacters {
                    let shift = 128 + 4 - 6 * (index + 1)
                    buffer[index] = Self.alphabet[Int(Self.sixBits(high, low, at: shift))]
                }
                return Self.randomIDCharacters
            }
        }
    }

    /// Whether `id` is this id's text, without making the text.
    func matches(_ id: String) -> Bool {
        self == PackedSessionID(id)
    }

    // MARK: Base64

    /// URL-safe Base64's alphabet (RFC 4648 §5), by value.
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of one URL-safe Base64 character, or nil.
    private static func value(of character: UInt8) -> UInt64? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt64(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The 16 bytes `text` encodes, when it is exactly 22 characters of the alphabet whose
    /// last 4 bits (padding) are zero: the one text that encodes them, so packing loses nothing.
    private static func packed(_ text: String.UTF8View) -> (high: UInt64, low: UInt64)? {
        guard text.count == randomIDCharacters else { return nil }
        // 132 bits in: the high word takes the first 64, the low word the next 64, 4 are left.
        var high: UInt64 = 0, low: UInt64 = 0, padding: UInt64 = 0
        var bit = 0
        for character in text {
            guard let value = value(of: character) else { return nil }
            for offset in stride(from: 5, through: 0, by: -1) {
                let set = (value >> UInt64(offset)) & 1
                switch bit {
                case 0..<64: high |= set << UInt64(63 - bit)
                case 64..<128: low |= set << UInt64(127 - bit)
                default: padding |= set
                }
                bit += 1
            }
        }
        return padding == 0 ? (high, low) : nil
    }

    /// The 6 bits of the 132-bit value `high ‖ low ‖ 0000` that end `shift` bits above its
    /// lowest bit.
    private static func sixBits(_ high: UInt64, _ low: UInt64, at shift: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<6 {
            // Bit `shift + offset` of the 132-bit value: the 4 lowest are the padding zeros.
            let position = shift + offset - 4
            let set: UInt64
            switch position {
            case ..<0: set = 0
            case 0..<64: set = (low >> UInt64(position)) & 1
            default: set = (high >> UInt64(position - 64)) & 1
            }
            value |= set << UInt64(offset)
        }
        return value
    }
}
