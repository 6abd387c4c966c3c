/// What the standard library says about UTF-8, as the reference the streaming validator is
/// checked against. Slow and simple on purpose.
enum UTF8Oracle {
    /// Whether `bytes` is complete, well-formed UTF-8.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether some continuation of `bytes` is well-formed: `bytes` is valid except for a
    /// character cut off at the end. A streaming validator must accept exactly these.
    static func isValidPrefix(_ bytes: ArraySlice<UInt8>) -> Bool {
        if isValid(bytes) { return true }
        // A cut character is at most 3 bytes; try each split into a valid head and a tail
        // that some continuation bytes complete. One representative per range of second
        // bytes that the rules tell apart (80–8F, 90–9F, A0–BF) covers every completion.
        for tailCount in 1...3 where tailCount <= bytes.count {
            let head = bytes.dropLast(tailCount)
            guard isValid(head) else { continue }
            let tail = Array(bytes.suffix(tailCount))
            if completions(upTo: 4 - tailCount).contains(where: { isValid(tail + $0) }) { return true }
        }
        return false
    }

    /// How many leading bytes of `bytes` form a valid prefix: a streaming validator must
    /// refuse exactly at this index (or never, when it is the count).
    static func validPrefixLength(_ bytes: [UInt8]) -> Int {
        if isValidPrefix(bytes[...]) { return bytes.count }
        // Being a valid prefix is lost for good once lost, so bisect.
        var good = 0, bad = bytes.count
        while bad - good > 1 {
            let middle = (good + bad) / 2
            if isValidPrefix(bytes[..<middle]) { good = middle } else { bad = middle }
        }
        return good
    }

    private static let representatives: [UInt8] = [0x80, 0x90, 0xA0]

    /// Every sequence of 1 to `count` representative continuation bytes.
    private static func completions(upTo count: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [[UInt8]] = [[]]
        for _ in 0..<count {
            current = current.flatMap { prefix in representatives.map { prefix + [$0] } }
            result += current
        }
        return result
    }
}
