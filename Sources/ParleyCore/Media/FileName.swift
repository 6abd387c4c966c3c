/// A file name a user gave, made safe to show and to put in a `Content-Disposition` header.
///
/// The name is only ever a label: files are stored under server-chosen ids, so this is not
/// about paths on the server. It is about what the name can do where it is shown or saved:
/// slashes that would make a browser or a client save into a folder, quotes and control
/// characters that would break a header or a terminal, and bidirectional marks that make
/// `evil‮fdp.exe` look like `evilexe.pdf`.
public enum FileName {
    /// The longest name kept, in UTF-8 bytes (the common file system limit).
    public static let maxBytes = 255
    /// The longest name a client may send (`invalid_field` beyond): longer ones up to it are
    /// cut to `maxBytes` once the removed characters are gone.
    public static let maxInputBytes = 1024
    /// The name of a file whose given name was empty or nothing but removed characters.
    public static let fallback = "file"

    /// `name` with path separators and quotes replaced by `_`, control and bidirectional
    /// formatting characters removed, surrounding spaces and leading dots dropped (no
    /// hidden files), and cut to `maxBytes` at a character boundary.
    public static func sanitized(_ name: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if isRemoved(scalar) { continue }
            kept.append(isReplaced(scalar) ? "_" : scalar)
        }
        var text = String(kept).trimmingCharacters(where: { $0 == " " || $0 == "." })
        if text.utf8.count > maxBytes {
            var cut = ""
            for character in text {
                if cut.utf8.count + String(character).utf8.count > maxBytes { break }
                cut.append(character)
            }
            text = cut
        }
        return text.isEmpty ? fallback : text
    }

    /// Control characters (C0, DEL, C1), the bidirectional marks, embeddings, overrides and
    /// isolates, zero-width and other invisible format characters, and separators of lines.
    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB: true
        default: false
        }
    }

    /// Path separators, quotes and characters Windows refuses in names.
    private static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        ["/", "\\", "\"", "'", "`", ":", "*", "?", "<", ">", "|"].contains(Character(scalar))
    }

    /// The value of `Content-Disposition` for `name` (sanitised here): RFC 6266 with an
    /// ASCII `filename` for old clients and the exact name in `filename*`.
    public static func contentDisposition(_ disposition: String, name: String) -> String {
        let clean = sanitized(name)
        let ascii = String(clean.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "_" })
        var encoded = ""
        for byte in clean.utf8 {
            if isAttributeChar(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "\(disposition); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// RFC 8187 `attr-char`: what may stand unencoded in an extended value.
    private static func isAttributeChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$&+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    fileprivate func trimmingCharacters(where drop: (Character) -> Bool) -> String {
        guard let start = firstIndex(where: { !drop($0) }) else { return "" }
        let end = lastIndex(where: { !drop($0) }) ?? start
        return String(self[start...end])
    }
}
