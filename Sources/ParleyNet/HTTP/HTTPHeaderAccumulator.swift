/// Collects header fields that http_parser hands over in pieces.
///
/// A name or value may arrive split over any number of callbacks (one per `feed` it spans),
/// so the pieces are gathered until the next field starts or the head ends.
struct HTTPHeaderAccumulator {
    private enum Phase {
        case betweenFields
        case inName
        case inValue
    }

    private let maxCount: Int
    private var phase = Phase.betweenFields
    private var name: [UInt8] = []
    private var value: [UInt8] = []
    private var headers = HTTPHeaders()
    private var fieldCount = 0

    init(maxCount: Int) {
        self.maxCount = maxCount
    }

    /// Adds a piece of a field name; a name after a value starts a new field.
    mutating func appendName(_ piece: UnsafeRawBufferPointer) -> HTTPDecodeError? {
        if phase != .inName {
            if let error = flush() { return error }
            fieldCount += 1
            if fieldCount > maxCount { return .tooManyHeaders }
            phase = .inName
        }
        name.append(contentsOf: piece)
        return nil
    }

    /// Adds a piece of the current field's value, or refuses it if it holds a control
    /// character (http_parser checks every byte of a value but the first).
    mutating func appendValue(_ piece: UnsafeRawBufferPointer) -> HTTPDecodeError? {
        if piece.contains(where: Self.isControl) { return .invalidHeaderValue }
        phase = .inValue
        value.append(contentsOf: piece)
        return nil
    }

    /// Ends the head: the fields collected so far, or why one of them is refused.
    mutating func finish() -> Result<HTTPHeaders, HTTPDecodeError> {
        if let error = flush() { return .failure(error) }
        let result = headers
        headers = HTTPHeaders()
        fieldCount = 0
        return .success(result)
    }

    private mutating func flush() -> HTTPDecodeError? {
        guard phase != .betweenFields else { return nil }
        defer {
            // Fresh arrays rather than `removeAll(keepingCapacity:)`: an idle connection
            // should not keep the capacity of its largest header.
            name = []
            value = []
            phase = .betweenFields
        }
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else { return .invalidHeaderName }
        let text = String(decoding: value, as: UTF8.self)
        headers.add(name: String(decoding: name, as: UTF8.self), value: String(text.trimmingSpaces()))
        return nil
    }

    /// The bytes RFC 9110 §5.5 keeps out of a field value: controls other than tab.
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    /// RFC 9110 `tchar`: the bytes a field name may hold.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
