/// Cuts newline-delimited lines out of a byte stream and holds a line limit as the bytes
/// arrive: a line is refused as soon as it has more than `maxLineBytes` bytes, whether its
/// newline came in the same read or never comes, so a peer can neither slip an over-long line
/// through inside one read nor grow the buffer with a line that never ends.
///
/// The caller reads at most `readBudget(chunk:)` bytes at a time, so no more than one byte
/// past the limit of the line in progress is ever taken from the peer.
struct LineFramer {
    /// What a read produced, in the order the bytes came.
    enum Piece: Equatable {
        /// A whole line, without its newline (bytes decoded as UTF-8, invalid ones replaced).
        case line(String)
        /// A line went past the limit; nothing after it is framed.
        case tooLong
    }

    /// The most bytes of one line, its newline not counted.
    let maxLineBytes: Int
    /// The line in progress: never more than `maxLineBytes` bytes.
    private var partial: [UInt8] = []
    /// Whether a line went past the limit (the stream is then over).
    private(set) var overflowed = false

    init(maxLineBytes: Int) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// How many bytes the next read may ask for: at most `chunk`, and no more than the line in
    /// progress needs to pass its limit by one byte.
    func readBudget(chunk: Int) -> Int {
        max(1, min(chunk, maxLineBytes + 1 - partial.count))
    }

    /// Takes the bytes of one read; returns the lines they finish and, if a line passed the
    /// limit, `.tooLong` last. After an overflow it returns nothing.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Piece] {
        guard !overflowed else { return [] }
        var pieces: [Piece] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let segment = bytes[start..<newline]
            guard partial.count + segment.count <= maxLineBytes else { return pieces + overflow() }
            partial.append(contentsOf: segment)
            pieces.append(.line(String(decoding: partial, as: UTF8.self)))
            // Released rather than kept: a connection may idle for a long time after a line.
            partial = []
            start = bytes.index(after: newline)
        }
        let rest = bytes[start...]
        guard partial.count + rest.count <= maxLineBytes else { return pieces + overflow() }
        partial.append(contentsOf: rest)
        return pieces
    }

    private mutating func overflow() -> [Piece] {
        overflowed = true
        partial = []
        return [.tooLong]
    }
}
