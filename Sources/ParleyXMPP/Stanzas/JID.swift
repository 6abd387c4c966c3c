/// A Jabber address, `local@domain/resource` (RFC 7622), with the local part and domain
/// compared without regard to case. Parley's usernames are ASCII letters, digits, `_`, `.` and
/// `-`, so lowercasing is all the normalization its JIDs need; other text is kept as sent.
public struct JID: Hashable, Sendable, CustomStringConvertible {
    public var local: String?
    public var domain: String
    public var resource: String?

    /// Longest part, in bytes (RFC 7622 §3).
    public static let maxPartBytes = 1023

    public init(local: String?, domain: String, resource: String? = nil) {
        self.init(normalizedLocal: local.map(Self.lowercased), domain: Self.lowercased(domain), resource: resource)
    }

    /// Parts already lowercased (another JID's): taken as they are.
    private init(normalizedLocal local: String?, domain: String, resource: String?) {
        self.local = local
        self.domain = domain
        self.resource = resource
    }

    /// Parses `[local@]domain[/resource]`; nil if a part is empty, too long, or the local part
    /// has a character RFC 7622 forbids there. The separators and every forbidden character
    /// are ASCII, so the search runs over UTF-8 bytes (every stanza's addresses pass here).
    public init?(_ text: String) {
        let utf8 = text.utf8
        var end = utf8.endIndex
        var resource: String?
        if let slash = utf8.firstIndex(of: UInt8(ascii: "/")) {
            let value = text[utf8.index(after: slash)...]
            guard !value.isEmpty, value.utf8.count <= Self.maxPartBytes else { return nil }
            resource = String(value)
            end = slash
        }
        var start = utf8.startIndex
        var local: String?
        if let at = utf8[..<end].firstIndex(of: UInt8(ascii: "@")) {
            let part = text[..<at]
            guard !part.isEmpty, part.utf8.count <= Self.maxPartBytes, !part.utf8.contains(where: Self.isForbiddenInLocal) else { return nil }
            local = String(part)
            start = utf8.index(after: at)
        }
        if start < end, utf8[utf8.index(before: end)] == UInt8(ascii: ".") { end = utf8.index(before: end) }
        let domain = text[start..<end]
        guard !domain.isEmpty, domain.utf8.count <= Self.maxPartBytes,
              !domain.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "@") }) else { return nil }
        self.init(local: local, domain: String(domain), resource: resource)
    }

    /// RFC 7622 §3.3.1: characters a local part may not contain.
    private static func isForbiddenInLocal(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "/"), UInt8(ascii: ":"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: " "): return true
        default: return false
        }
    }

    /// `text` lowercased; as it is when it is ASCII without capitals, as addresses almost
    /// always are (Unicode lowercasing is far dearer than the check).
    static func lowercased(_ text: String) -> String {
        text.containsUTF8Byte(where: { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? text.lowercased() : text
    }

    /// Whether `resource` can be a resource part as it is: not empty, at most `maxPartBytes`,
    /// and every character one RFC 7622 allows there (`isAllowedInResource`). A stream's bound
    /// resource and a native session's (`NativeResources.resourceName`) keep to this one rule.
    public static func isValidResource(_ resource: String) -> Bool {
        !resource.isEmpty && resource.utf8.count <= maxPartBytes && resource.unicodeScalars.allSatisfy(isAllowedInResource)
    }

    /// Whether `scalar` may stand in a resource part (RFC 7622 §3.4: the PRECIS OpaqueString
    /// profile, which takes letters, digits, punctuation, symbols and spaces): not a control
    /// character, nor unassigned, nor a noncharacter. Spaces and ordinary punctuation
    /// ("Bob's phone (2)") are allowed.
    public static func isAllowedInResource(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .unassigned, .surrogate: return false
        default: return !scalar.properties.isNoncharacterCodePoint
        }
    }

    /// The address without its resource.
    public var bare: JID { JID(normalizedLocal: local, domain: domain, resource: nil) }

    /// The same address with `resource` (its other parts are normalized already).
    public func withResource(_ resource: String?) -> JID {
        JID(normalizedLocal: local, domain: domain, resource: resource)
    }

    /// Written once into a string of its exact size (every stanza written names two or
    /// three JIDs): no part is copied with its separator first, nor the text grown.
    public var description: String {
        let count = (local.map { $0.utf8.count + 1 } ?? 0) + domain.utf8.count + (resource.map { $0.utf8.count + 1 } ?? 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = 0
            func put(_ part: String) {
                written = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: part.utf8).1 + written
            }
            func put(_ byte: UInt8) {
                buffer[written] = byte
                written += 1
            }
            if let local {
                put(local)
                put(UInt8(ascii: "@"))
            }
            put(domain)
            if let resource {
                put(UInt8(ascii: "/"))
                put(resource)
            }
            return written
        }
    }
}
