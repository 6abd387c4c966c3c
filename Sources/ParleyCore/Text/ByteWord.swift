/// Eight bytes of a buffer read as one word, so that a scan every message pays for (the text
/// checks' search for control characters) asks of all eight at once whether one is below a
/// bound or equal to a value. The answers are exact for "is there one" but not for where, so
/// a scan reads a word that answers yes again byte by byte.
struct ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    let value: UInt64

    /// The eight bytes at `offset` from `base` (any alignment).
    init(_ base: UnsafeRawPointer, at offset: Int) {
        value = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether a byte is below `bound`, which must be at most 0x80.
    func hasByte(below bound: UInt8) -> Bool {
        // A byte below n sets its high bit in (x − n·ones) & ~x; no other byte can.
        (value &- UInt64(bound) &* Self.ones) & ~value & Self.highBits != 0
    }

    /// Whether a byte equals `byte` (a zero byte of x ^ byte·ones, so one below 1).
    func hasByte(_ byte: UInt8) -> Bool {
        let x = value ^ (UInt64(byte) &* Self.ones)
        return (x &- Self.ones) & ~x & Self.highBits != 0
    }
}
