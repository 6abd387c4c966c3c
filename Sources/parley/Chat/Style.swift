/// How a piece of text looks: an ANSI colour (dropped under `NO_COLOR`) and attributes
/// (bold, dim, reverse, underline — kept in monochrome, where they carry the meaning alone).
struct Style: Equatable, Sendable {
    /// The eight ANSI colours Parley uses, by SGR code.
    enum Color: Int, Sendable {
        case red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36
    }

    var color: Color?
    var bold = false
    var dim = false
    var reverse = false
    var underline = false

    static let plain = Style()
    static let bold = Style(bold: true)
    static let dim = Style(dim: true)
    static let reverse = Style(reverse: true)

    /// The same style in another colour.
    func colored(_ color: Color) -> Style {
        var copy = self
        copy.color = color
        return copy
    }

    /// The same style, reversed.
    var reversed: Style {
        var copy = self
        copy.reverse = true
        return copy
    }

    /// The SGR sequence that switches to this style from the default.
    func sequence(colors: Bool) -> String {
        var codes: [String] = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if colors, let color { codes.append(String(color.rawValue)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
