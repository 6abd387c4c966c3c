/// A one-line text input: insert at the cursor, delete, move; shown scrolled so that the
/// cursor stays in sight, with wide characters measured by display width.
struct LineEditor: Equatable {
    private(set) var characters: [Character] = []
    private(set) var cursor = 0
    /// Shown as dots (passwords).
    var isSecret = false
    /// Most characters accepted.
    var limit = 4000

    init(_ text: String = "", secret: Bool = false, limit: Int = 4000) {
        characters = Array(text)
        cursor = characters.count
        isSecret = secret
        self.limit = limit
    }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }

    /// Applies an editing key; false when the key is not an editing key.
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            guard characters.count < limit else { return true }
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .ctrl("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .ctrl("e"): cursor = characters.count
        case .ctrl("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .ctrl("k"): characters.removeLast(characters.count - cursor)
        case .ctrl("w"):
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    mutating func clear() {
        characters = []
        cursor = 0
    }

    /// The visible part in `columns` and the cursor's column within it.
    func visible(in columns: Int) -> (text: String, cursorColumn: Int) {
        guard columns > 1 else { return ("", 0) }
        let shown = isSecret ? Array(repeating: Character("•"), count: characters.count) : characters
        var start = 0
        // Scroll right until the cursor fits, leaving a column for it.
        while DisplayWidth.width(of: String(shown[start..<cursor])) > columns - 1 { start += 1 }
        var text = ""
        var used = 0
        for character in shown[start...] {
            let w = DisplayWidth.width(of: character)
            if used + w > columns { break }
            text.append(character)
            used += w
        }
        return (text, DisplayWidth.width(of: String(shown[start..<cursor])))
    }
}
