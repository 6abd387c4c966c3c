extension XMLElement {
    /// The namespace of the stream's own elements (`<stream:features>`, `<stream:error>`),
    /// written with the `stream:` prefix the stream header declares.
    public static let streamNamespace = "http://etherx.jabber.org/streams"

    /// The element as XML text. `inheritedNamespace` is the default namespace in scope where it
    /// is written (`jabber:client` for a stanza); `xmlns` is written only where it changes.
    public func serialized(inheritedNamespace: String = clientNamespace) -> String {
        String(decoding: serializedBytes(inheritedNamespace: inheritedNamespace), as: UTF8.self)
    }

    /// The element as UTF-8 XML, as `serialized` writes it: what a stream sends. Built in one
    /// byte buffer, so no string is made for a tag or an attribute (every stanza a stream
    /// writes passes here).
    public func serializedBytes(inheritedNamespace: String = clientNamespace) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.typicalSerializedBytes)
        write(to: &out, inheritedNamespace: inheritedNamespace)
        return out
    }

    /// Room for a chat message stanza with its receipt request and ids, so its buffer
    /// rarely grows.
    static let typicalSerializedBytes = 512

    func write(to out: inout [UInt8], inheritedNamespace: String) {
        let prefixed = namespace == Self.streamNamespace
        out.append(UInt8(ascii: "<"))
        writeTag(prefixed: prefixed, to: &out)
        var scope = inheritedNamespace
        if !prefixed && namespace != inheritedNamespace {
            out.append(contentsOf: " xmlns='".utf8)
            XMLEscaping.appendAttributeValue(namespace, to: &out)
            out.append(UInt8(ascii: "'"))
            scope = namespace
        }
        for attribute in attributes {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: attribute.name.utf8)
            out.append(contentsOf: "='".utf8)
            XMLEscaping.appendAttributeValue(attribute.value, to: &out)
            out.append(UInt8(ascii: "'"))
        }
        if children.isEmpty {
            out.append(contentsOf: "/>".utf8)
            return
        }
        out.append(UInt8(ascii: ">"))
        for child in children {
            switch child {
            case .element(let element): element.write(to: &out, inheritedNamespace: scope)
            case .text(let text): XMLEscaping.appendText(text, to: &out)
            }
        }
        out.append(contentsOf: "</".utf8)
        writeTag(prefixed: prefixed, to: &out)
        out.append(UInt8(ascii: ">"))
    }

    /// The element's name as written, with the `stream:` prefix for the stream's own elements.
    private func writeTag(prefixed: Bool, to out: inout [UInt8]) {
        if prefixed { out.append(contentsOf: "stream:".utf8) }
        out.append(contentsOf: name.utf8)
    }
}

/// Escaping of text and attribute values, and removal of characters XML 1.0 cannot carry
/// (Parley text may contain control characters a Jabber client's parser would reject, which
/// would end its whole stream): those become U+FFFD.
public enum XMLEscaping {
    /// Appends the UTF-8 of `text` escaped for element content.
    public static func appendText(_ text: String, to out: inout [UInt8]) {
        guard text.containsUTF8Byte(where: needsCareInText) else {
            out.append(contentsOf: text.utf8)
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "<": out.append(contentsOf: "&lt;".utf8)
            case ">": out.append(contentsOf: "&gt;".utf8)
            // A parser turns a raw CR (and CR LF) into LF; escaped, it survives.
            case "\r": out.append(contentsOf: "&#13;".utf8)
            default: appendScalar(scalar, to: &out)
            }
        }
    }

    /// Appends the UTF-8 of `value` escaped for an attribute in single or double quotes.
    public static func appendAttributeValue(_ value: String, to out: inout [UInt8]) {
        guard value.containsUTF8Byte(where: needsCareInAttribute) else {
            out.append(contentsOf: value.utf8)
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "<": out.append(contentsOf: "&lt;".utf8)
            case ">": out.append(contentsOf: "&gt;".utf8)
            case "'": out.append(contentsOf: "&apos;".utf8)
            case "\"": out.append(contentsOf: "&quot;".utf8)
            // Kept as written: a parser would otherwise normalize them to spaces.
            case "\n": out.append(contentsOf: "&#10;".utf8)
            case "\r": out.append(contentsOf: "&#13;".utf8)
            case "\t": out.append(contentsOf: "&#9;".utf8)
            default: appendScalar(scalar, to: &out)
            }
        }
    }

    /// Escapes `value` for an attribute.
    public static func attribute(_ value: String) -> String {
        guard value.containsUTF8Byte(where: needsCareInAttribute) else { return value }
        var out: [UInt8] = []
        appendAttributeValue(value, to: &out)
        return String(decoding: out, as: UTF8.self)
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

    private static func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(isAllowed(scalar) ? scalar : "\u{FFFD}") { out.append($0) }
    }

    /// XML 1.0's `Char` production.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
