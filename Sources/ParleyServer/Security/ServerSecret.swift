import Foundation
import ParleyNet

/// The server's own secret: 32 random bytes made at first start and kept in the data
/// directory (`server.secret`, readable by the server's user only). What must look the same
/// from every node and across restarts is derived from it (the SCRAM salt for unknown Jabber
/// usernames). A cluster's nodes need the same file: copy it to each node's data directory.
enum ServerSecret {
    static let fileName = "server.secret"
    static let byteCount = 32

    /// The secret in `directory`, made there first if there is none. A file of the wrong size
    /// is refused rather than replaced: replacing it would change what clients have seen.
    static func load(from directory: String) throws -> [UInt8] {
        let path = directory + "/" + fileName
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == byteCount else {
                throw ConfigurationError.invalidValue(flag: "data", value: path, expected: "a \(byteCount)-byte server secret (delete the file to make a new one)")
            }
            return Array(data)
        }
        let secret = SecureRandom.bytes(byteCount)
        guard FileManager.default.createFile(atPath: path, contents: Data(secret), attributes: [.posixPermissions: 0o600]) else {
            throw ConfigurationError.invalidValue(flag: "data", value: directory, expected: "a directory the server can write \(fileName) to")
        }
        return secret
    }

    /// HMAC-SHA256 under a key derived from the secret in `directory`, for signing media
    /// links (`MediaURLSigner`): every node with the same secret accepts the others' links.
    static func mediaLinkMAC(from directory: String) throws -> @Sendable ([UInt8]) -> [UInt8] {
        let key = CryptoHash.sha256.hmac(key: try load(from: directory), Array("parley media links".utf8))
        return { CryptoHash.sha256.hmac(key: key, $0) }
    }
}
