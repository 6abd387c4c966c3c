/// PLAIN (RFC 4616): `authzid NUL authcid NUL password`.
public struct SASLPlain: Sendable, Equatable {
    public var username: String
    public var password: String

    /// Decodes the (already base64-decoded) message. An authorization identity is accepted
    /// only when it names the same user (bare JID or plain username).
    public init(_ message: [UInt8], domain: String) throws(SASLFailure) {
        let parts = message.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty, !parts[2].isEmpty,
              let authzid = String(validating: parts[0], as: UTF8.self),
              let username = String(validating: parts[1], as: UTF8.self),
              let password = String(validating: parts[2], as: UTF8.self) else {
            throw SASLFailure(.malformedRequest, "PLAIN is authzid NUL username NUL password")
        }
        if !authzid.isEmpty && authzid.lowercased() != username.lowercased()
            && authzid.lowercased() != "\(username)@\(domain)".lowercased() {
            throw SASLFailure(.invalidAuthzid, "you may act only as yourself")
        }
        self.username = username
        self.password = password
    }
}
