import Foundation
import ParleyNet

/// The server's VAPID key (RFC 8292): a P-256 key pair made at first start and kept in the
/// data directory (`vapid.key`, the private scalar then the public point, readable by the
/// server's user only). Browsers bind a subscription to its public key, so it must not
/// change: a cluster's nodes need the same file, like `server.secret`.
struct VAPIDKey: Sendable {
    static let fileName = "vapid.key"
    let key: P256Key

    /// The public key as `applicationServerKey` wants it (base64url of the 65-byte point).
    var publicKeyText: String { Base64URL.encode(key.publicKey) }

    /// The key in `directory`, made there first if there is none. A damaged file is refused
    /// rather than replaced: replacing it would silently end every subscription.
    static func load(from directory: String) throws -> VAPIDKey {
        let path = directory + "/" + fileName
        if let data = FileManager.default.contents(atPath: path) {
            let bytes = Array(data)
            guard bytes.count == 97, let key = try? P256Key(privateKey: Array(bytes[0..<32]), publicKey: Array(bytes[32...])) else {
                throw ConfigurationError.invalidValue(flag: "data", value: path, expected: "a VAPID key file of 97 bytes (delete it to make a new one; every push subscription ends)")
            }
            return VAPIDKey(key: key)
        }
        let key = try P256Key.generate()
        guard let secret = key.privateKey,
              FileManager.default.createFile(atPath: path, contents: Data(secret + key.publicKey), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError.invalidValue(flag: "data", value: directory, expected: "a directory the server can write \(fileName) to")
        }
        return VAPIDKey(key: key)
    }

    /// The `Authorization` header for a push to `endpoint` (RFC 8292 §3): a JWT for the
    /// endpoint's origin, valid until `expiresAt` (seconds since the epoch), naming `subject`
    /// (a `mailto:` or `https:` contact for the push service's operator).
    func authorization(audience: String, expiresAt: Int64, subject: String) throws -> String {
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = try JSONSerialization.data(withJSONObject: ["aud": audience, "exp": expiresAt, "sub": subject],
                                                options: [.sortedKeys, .withoutEscapingSlashes])
        let signingInput = header + "." + Base64URL.encode(Array(claims))
        let signature = try key.signES256(Array(signingInput.utf8))
        return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(publicKeyText)"
    }
}
