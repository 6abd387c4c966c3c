/// Text smileys to emoji before display (seed 001): `:)` → 🙂, `<3` → ❤️ and so on.
public enum Emoticons {
    /// The smileys understood, longest first where one starts another (`:-)` before `:)`).
    public static let table: [(String, String)] = [
        (">:(", "😠"), (":'(", "😢"), ("</3", "💔"),
        (":-)", "🙂"), (":-(", "🙁"), (";-)", "😉"), (":-D", "😄"), (":-P", "😛"), (":-p", "😛"), (":-O", "😮"), (":-*", "😘"),
        (":)", "🙂"), (":(", "🙁"), (";)", "😉"), (":D", "😄"), (":P", "😛"), (":p", "😛"),
        (":O", "😮"), (":o", "😮"), (":*", "😘"), (":|", "😐"), ("<3", "❤️"), ("^_^", "😊"), ("XD", "😆"), ("B)", "😎"),
    ]

    /// `text` with its smileys replaced. A smiley followed by a letter or digit is left alone
    /// (`x<30`, `:Pizza`), and so are words with `://` (links), so that only real smileys change.
    /// Smileys that start with a letter (`XD`, `B)`) count only as whole words.
    public static func emojify(_ text: String) -> String {
        guard text.contains(where: { ":;<>^XB".contains($0) }) else { return text }
        var output = ""
        var word = ""
        for character in text {
            if character.isWhitespace {
                output += replaceIn(word) + String(character)
                word = ""
            } else {
                word.append(character)
            }
        }
        return output + replaceIn(word)
    }

    private static func replaceIn(_ word: String) -> String {
        guard !word.isEmpty, !word.contains("://") else { return word }
        let characters = Array(word)
        var result = ""
        var index = 0
        outer: while index < characters.count {
            for (smiley, emoji) in table {
                let length = smiley.count
                guard index + length <= characters.count, String(characters[index..<index + length]) == smiley else { continue }
                let startsWithLetter = smiley.first?.isLetter == true
                if startsWithLetter && (index > 0 || index + length != characters.count) { continue }
                if index + length < characters.count {
                    let next = characters[index + length]
                    if next.isLetter || next.isNumber { continue }
                }
                result += emoji
                index += length
                continue outer
            }
            result.append(characters[index])
            index += 1
        }
        return result
    }
}
