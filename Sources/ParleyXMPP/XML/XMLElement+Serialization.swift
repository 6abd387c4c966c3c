extension XMLElement {
    /// The namespace of the stream's own elements (`<stream:features>`, `<stream:error>`),
    /// written with the `stream:` prefix the stream header declares.
    public static let streamNamespace = "http://etherx.jabber.org/streams"

    /// The element as XML text. `inheritedNamespace` is the default namespace in scope where it
    /// is written (`jabber:client` for a stanza); `xmlns` is written only where it changes.
    public func serialized(inheritedNamespace: String = "jabber:client") -> String {
        var out = ""
        write(to: &out, inheritedNamespace: inheritedNamespace)
        return out
    }

    func write(to out: inout String, inheritedNamespace: String) {
        let prefixed = namespace == Self.streamNamespace
        let tag = prefixed ? "stream:" + name : name
        out += "<" + tag
        var scope = inheritedNamespace
        if !prefixed && namespace != inheritedNamespace {
            out += " xmlns='"
            XMLEscaping.appendAttributeValue(namespace, to: &out)
            out += "'"
            scope = namespace
        }
        for attribute in attributes {
            out += " " + attribute.name + "='"
            XMLEscaping.appendAttributeValue(attribute.value, to: &out)
            out += "'"
        }
        if children.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        for child in children {
            switch child {
            case .element(let element): element.write(to: &out, inheritedNamespace: scope)
            case .text(let text): XMLEscaping.appendText(text, to: &out)
            }
        }
        out += "</" + tag + ">"
    }
}

/// Escaping of text and attribute values, and removal of characters XML 1.0 cannot carry
/// (Parley text may contain control characters a Jabber client's parser would reject, which
/// would end its whole stream): those become U+FFFD.
public enum XMLEscaping {
    /// Appends `text` escaped for element content.
    public static func appendText(_ text: String, to out: inout String) {
        guard text.containsUTF8Byte(where: needsCareInText) else {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            // A parser turns a raw CR (and CR LF) into LF; escaped, it survives.
            case "\r": out += "&#13;"
            default: appendScalar(scalar, to: &out)
            }
        }
    }

    /// Appends `value` escaped for an attribute in single or double quotes.
    public static func appendAttributeValue(_ value: String, to out: inout String) {
        guard value.containsUTF8Byte(where: needsCareInAttribute) else {
            out += value
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\"": out += "&quot;"
            // Kept as written: a parser would otherwise normalize them to spaces.
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: appendScalar(scalar, to: &out)
            }
        }
    }

    /// Escapes `value` for an attribute.
    public static func attribute(_ value: String) -> String {
        var out = ""
        appendAttributeValue(value, to: &out)
        return out
    }

    // Most text needs no escaping and is appended whole; these find the bytes that may need
    // more than a copy. Every character escaped is ASCII; below 0x20 only tab and LF (and in
    // text, not CR) pass as they are; and the only scalars above ASCII that XML cannot carry,
    // U+FFFE and U+FFFF, start with 0xEF in UTF-8 (so do other characters, which only take
    // the careful path for nothing).

    private static func needsCareInText(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0xEF: return true
        case 0x09, 0x0A: return false
        default: return byte < 0x20
        }
    }

    private static func needsCareInAttribute(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), 0xEF: return true
        default: return byte < 0x20
        }
    }

    private static func appendScalar(_ scalar: Unicode.Scalar, to out: inout String) {
        out.unicodeScalars.append(isAllowed(scalar) ? scalar : "\u{FFFD}")
    }

    /// XML 1.0's `Char` production.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
