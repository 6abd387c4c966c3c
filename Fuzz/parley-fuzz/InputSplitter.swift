/// Cuts an input into pieces, as a socket might deliver it, so a harness can check that a
/// streaming parser gives the same answer however its input arrives.
///
/// The cuts are derived from the input's own hash, not from a byte the parser would also
/// read: the same input always splits the same way (so a saved crash replays), and the
/// fuzzer still gets every byte for the parser.
enum InputSplitter {
    /// The split for `bytes`: pieces of 1 to `maxPiece` bytes that together are `bytes`.
    static func randomPieces(_ bytes: [UInt8], maxPiece: Int = 16) -> [ArraySlice<UInt8>] {
        var generator = SplitMix64(seed: fnv1a(bytes))
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            // Mostly short pieces, sometimes long ones, so both kinds of boundary get hit.
            let limit = generator.next() % 8 == 0 ? max(maxPiece, bytes.count / 2) : maxPiece
            let size = Int(generator.next() % UInt64(limit)) + 1
            let end = min(bytes.count, start + size)
            pieces.append(bytes[start..<end])
            start = end
        }
        return pieces
    }

    /// One byte per piece: every possible boundary at once.
    static func singleBytes(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.indices.map { bytes[$0..<($0 + 1)] }
    }

    /// The splits worth trying for `bytes`: random pieces always, single bytes while that
    /// stays cheap (a harness is run millions of times).
    static func splits(_ bytes: [UInt8], singleByteLimit: Int = 2048) -> [[ArraySlice<UInt8>]] {
        var splits = [randomPieces(bytes)]
        if bytes.count <= singleByteLimit { splits.append(singleBytes(bytes)) }
        return splits
    }

    /// FNV-1a: a fast, stable hash (Swift's `Hasher` is seeded per process, so it would not
    /// replay).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
