/// The part of a body a `Range` request header asks for (RFC 9110 §14), against a body of
/// known length.
///
/// Only one range of bytes is served: a request for several gets the whole body (which
/// RFC 9110 allows a server to do), so no multipart answer is ever built.
public enum HTTPRange: Equatable, Sendable {
    /// Send the whole body with 200: no `Range`, one the server ignores (another unit,
    /// several ranges, a syntax error), or one that covers everything anyway.
    case whole
    /// Send `length` bytes from `offset` with 206 and `Content-Range`.
    case partial(offset: Int, length: Int)
    /// No requested byte exists: 416 with `Content-Range: bytes */<length>`.
    case unsatisfiable

    /// The range that `header` (the `Range` value, or nil) asks of a body of `length` bytes.
    public init(header: String?, length: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingSpaces()
        guard trimmed.lowercasedASCII().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingSpaces()
        let last = spec[spec.index(after: dash)...].trimmingSpaces()
        if first.isEmpty {
            // `-n`: the last n bytes.
            guard let suffix = Self.number(last) else {
                self = .whole
                return
            }
            guard suffix > 0, length > 0 else {
                self = .unsatisfiable
                return
            }
            let count = min(suffix, length)
            self = count == length ? .whole : .partial(offset: length - count, length: count)
            return
        }
        guard let start = Self.number(first) else {
            self = .whole
            return
        }
        var end = length - 1
        if !last.isEmpty {
            guard let value = Self.number(last), value >= start else {
                self = .whole
                return
            }
            end = min(value, length - 1)
        }
        guard start < length else {
            self = .unsatisfiable
            return
        }
        self = start == 0 && end == length - 1 ? .whole : .partial(offset: start, length: end - start + 1)
    }

    /// A non-negative decimal of at most 18 digits (so it fits an `Int`), else nil.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
