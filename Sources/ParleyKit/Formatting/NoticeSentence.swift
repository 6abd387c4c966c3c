/// A system notice's sentence kept as its template's own words and the people set into it,
/// so that the Chinese spacing is decided where a person's name meets the template's words
/// (`text(spacingNames:)`) and a name's own characters (two spaces in it included) are never
/// touched. Written like a string: `"\(actor)加入了群聊"`, where `actor` is a `Person`.
struct NoticeSentence: ExpressibleByStringInterpolation, Sendable {
    /// Someone a notice names: a display name, or the reader's "You" / "你".
    struct Person: Sendable {
        let name: String
    }

    enum Part: Sendable {
        case words(String)
        case person(String)
    }

    private(set) var parts: [Part]

    init(stringLiteral value: String) {
        parts = value.isEmpty ? [] : [.words(value)]
    }

    init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    struct Interpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.words(literal)) }
        }

        /// Words that belong to the sentence (a group's quoted name, an emoji, a list of fields).
        mutating func appendInterpolation(_ words: String) {
            appendLiteral(words)
        }

        mutating func appendInterpolation(_ person: Person) {
            parts.append(.person(person.name))
        }
    }

    /// The sentence as text. With `spacingNames` (Chinese, which writes a name straight
    /// against the words around it: 小林加入了群聊), a name starting or ending in a Latin letter
    /// or digit is set apart by one space on that side (Mei 将 Lin 移出了群聊) — never at the
    /// sentence's start or end, nor where a space is there already.
    func text(spacingNames: Bool) -> String {
        var text = ""
        for (index, part) in parts.enumerated() {
            switch part {
            case .words(let words):
                text += words
            case .person(let name):
                guard spacingNames else {
                    text += name
                    continue
                }
                if let before = text.unicodeScalars.last, !before.properties.isWhitespace,
                   let first = name.unicodeScalars.first, Self.isLatin(first) {
                    text += " "
                }
                text += name
                if let last = name.unicodeScalars.last, Self.isLatin(last),
                   let next = firstScalar(after: index), !next.properties.isWhitespace {
                    text += " "
                }
            }
        }
        return text
    }

    /// The first character of what follows part `index`, if anything does.
    private func firstScalar(after index: Int) -> Unicode.Scalar? {
        for part in parts[(index + 1)...] {
            switch part {
            case .words(let text), .person(let text):
                if let first = text.unicodeScalars.first { return first }
            }
        }
        return nil
    }

    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
    }
}
