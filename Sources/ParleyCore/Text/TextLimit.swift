/// How long one text field may be: a range of characters, counted as Unicode scalars, and a
/// most of UTF-8 bytes.
///
/// Why scalars and bytes, not Swift `Character`s: a `Character` is a grapheme cluster, and
/// one cluster may hold any number of combining scalars ("a" followed by millions of U+0301 is
/// one `Character` of megabytes). A limit counted in graphemes bounds nothing; one in scalars
/// and bytes bounds what is stored, sent and shown.
public struct TextLimit: Sendable, Equatable {
    /// Allowed length in Unicode scalars.
    public var characters: ClosedRange<Int>
    /// Most UTF-8 bytes.
    public var bytes: Int

    public init(characters: ClosedRange<Int>, bytes: Int) {
        self.characters = characters
        self.bytes = bytes
    }

    /// Most characters (the range's upper bound), settable on its own.
    public var maxCharacters: Int {
        get { characters.upperBound }
        set { characters = min(characters.lowerBound, newValue)...newValue }
    }

    /// Whether `text` is within the limit. Reads the byte count first (constant time for a
    /// native string) and counts scalars only up to the bound, so a hostile megabyte value
    /// costs no more than a legal one.
    public func allows(_ text: String) -> Bool {
        let byteCount = text.utf8.count
        guard byteCount <= bytes else { return false }
        // A scalar takes 1 to 4 bytes, so the byte count bounds the scalar count from above,
        // and a quarter of it (rounded up) from below: most texts are decided without a count.
        if byteCount <= characters.upperBound && (byteCount + 3) / 4 >= characters.lowerBound { return true }
        if byteCount < characters.lowerBound { return false }
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > characters.upperBound { return false }
        }
        return count >= characters.lowerBound
    }

    /// `text` cut to at most the limit's characters and bytes, at a scalar boundary (for
    /// values stored before the limit held).
    public func clipped(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var byteCount = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard scalars.count < characters.upperBound, byteCount + width <= bytes else { break }
            scalars.append(scalar)
            byteCount += width
        }
        return String(scalars)
    }
}
