/// How many terminal columns text takes: East Asian Wide and Fullwidth characters and emoji
/// take two, combining marks and joiners none, everything else one. Counting bytes or scalars
/// would misalign every line with Chinese in it.
enum DisplayWidth {
    /// Ranges of scalars that take two columns (Unicode's East Asian Width W and F, and the
    /// emoji shown as pictures by default).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
        // The pictographs block scalar by scalar: those shown as text by default (🏳 ☀ 🕊…)
        // take one column, as terminals draw them.
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Columns of one scalar: 0, 1 or 2.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) || value == 0x200B { return 0 }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and finals join the syllable
        var low = 0
        var high = wide.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < wide[middle].lowerBound {
                high = middle - 1
            } else if value > wide[middle].upperBound {
                low = middle + 1
            } else {
                return 2
            }
        }
        return 1
    }

    /// Columns of one grapheme cluster as terminals that measure by scalar (wcwidth: xterm,
    /// VTE, tmux) draw it: the sum of its scalars' widths, where a scalar after a zero-width
    /// joiner joins the picture before it and takes no column of its own. So a ZWJ family is
    /// 2, a skin-toned thumb 4 (the modifier is drawn beside it), a flag 2 (two regional
    /// indicators of one column), and a variation selector adds nothing ("❤️" stays 1).
    /// Anything else would push every column after it out of line.
    static func width(of character: Character) -> Int {
        if character.isASCII { return character.asciiValue.map { $0 < 0x20 || $0 == 0x7F ? 0 : 1 } ?? 1 }
        var total = 0
        var joining = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0x200D {
                joining = true
                continue
            }
            let columns = width(of: scalar)
            if joining && columns > 0 {
                joining = false
                continue
            }
            total += columns
        }
        return total
    }

    /// Whether a character holds a C0 or C1 control (ESC, CR, DEL…), which must not reach
    /// the terminal from other people's text.
    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Columns of a string.
    static func width(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The longest prefix that fits in `columns`, with "…" when something was cut.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard width(of: text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = width(of: character)
            if used + w > columns - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` cut or padded with spaces to exactly `columns`.
    static func fit(_ text: String, to columns: Int) -> String {
        let cut = truncate(text, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - width(of: cut)))
    }

    /// Lines of at most `columns` each: words wrap at spaces, words longer than a line are
    /// broken, and CJK text (which has no spaces) breaks between any two characters; newlines
    /// are kept.
    static func wrap(_ text: String, to columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            func endLine() {
                while line.last == " " { line.removeLast() }
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            for token in tokens(of: paragraph) {
                let tokenWidth = width(of: token)
                if token.first == " " {
                    if !line.isEmpty && lineWidth + tokenWidth <= columns {
                        line += token
                        lineWidth += tokenWidth
                    } else if !line.isEmpty {
                        endLine()
                    }
                    continue
                }
                if lineWidth + tokenWidth <= columns {
                    line += token
                    lineWidth += tokenWidth
                    continue
                }
                if !line.isEmpty { endLine() }
                for character in token {
                    let w = width(of: character)
                    if lineWidth + w > columns { endLine() }
                    line.append(character)
                    lineWidth += w
                }
            }
            endLine()
        }
        return lines
    }

    /// Runs of spaces, runs of other narrow characters (words), and single wide characters.
    private static func tokens(of text: Substring) -> [String] {
        var tokens: [String] = []
        var current = ""
        var currentIsSpace = false
        for character in text {
            let isSpace = character == " "
            if width(of: character) == 2 {
                if !current.isEmpty { tokens.append(current) }
                tokens.append(String(character))
                current = ""
                continue
            }
            if !current.isEmpty && isSpace != currentIsSpace {
                tokens.append(current)
                current = ""
            }
            current.append(character)
            currentIsSpace = isSpace
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
