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
        self.local = local?.lowercased()
        self.domain = domain.lowercased()
        self.resource = resource
    }

    /// Parses `[local@]domain[/resource]`; nil if a part is empty, too long, or the local part
    /// has a character RFC 7622 forbids there.
    public init?(_ text: String) {
        var rest = Substring(text)
        var resource: String?
        if let slash = rest.firstIndex(of: "/") {
            resource = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
            guard let resource, !resource.isEmpty, resource.utf8.count <= Self.maxPartBytes else { return nil }
        }
        var local: String?
        if let at = rest.firstIndex(of: "@") {
            local = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
            guard let local, !local.isEmpty, local.utf8.count <= Self.maxPartBytes,
                  !local.contains(where: { "\"&'/:<>@ ".contains($0) }) else { return nil }
        }
        let domain = rest.hasSuffix(".") ? rest.dropLast() : rest
        guard !domain.isEmpty, domain.utf8.count <= Self.maxPartBytes, !domain.contains("@"),
              !domain.unicodeScalars.contains(where: { $0.value <= 0x20 }) else { return nil }
        self.init(local: local, domain: String(domain), resource: resource)
    }

    /// The address without its resource.
    public var bare: JID { JID(local: local, domain: domain) }

    public var description: String {
        var text = local.map { $0 + "@" } ?? ""
        text += domain
        if let resource { text += "/" + resource }
        return text
    }
}
