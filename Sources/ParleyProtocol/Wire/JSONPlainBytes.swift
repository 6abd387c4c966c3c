/// Finds where a JSON string's plain run ends: the first byte that needs attention inside a
/// string (`"`, `\` or a control character below 0x20), eight bytes at a time. Both the
/// hand-written reader (`JSONScanner`) and writer (`JSONWriter`) walk every string of the hot
/// path's frames this way: a message's text, its client id, the keys. A byte at a time, that
/// walk was the largest single piece of the event loops' JSON work per 1:1 message
/// (docs/benchmarks.md, (aa)).
enum JSONPlainBytes {
    /// The index of the first byte from `start` on that needs attention, or `bytes.count`.
    /// Inlined: most strings of a frame are short keys, where a call would cost more than
    /// the walk.
    @inline(__always)
    static func runEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while count - index >= 8, !needsAttention(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        while index < count, !needsAttention(bytes[index]) {
            index += 1
        }
        return index
    }

    @inline(__always)
    static func needsAttention(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes of `word` needs attention. The usual bit tricks, exact
    /// for "any byte" (a byte is below n ≤ 0x80 exactly when (b - n) borrows into a clear
    /// high bit): a byte below 0x20, or one equal to `"` or `\` (zero after the XOR).
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x20 &* ones) & ~word & highs
        let quote = word ^ (UInt64(UInt8(ascii: "\"")) &* ones)
        let backslash = word ^ (UInt64(UInt8(ascii: "\\")) &* ones)
        let zeroQuote = (quote &- ones) & ~quote & highs
        let zeroBackslash = (backslash &- ones) & ~backslash & highs
        return control | zeroQuote | zeroBackslash != 0
    }
}
