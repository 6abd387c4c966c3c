import ParleyNet
import ParleySync

/// The XEP-0084 facts of profile avatars (the image's SHA-1 in hex, its size and type), by
/// media id: reading them means loading the image, so each is read once. Media never change
/// under an id, so nothing goes stale; the memory starts over past `capacity` entries.
final class AvatarIDs: Sendable {
    struct Info: Sendable, Equatable {
        var id: String
        var bytes: Int
        var type: String
    }

    private let known = PThreadMutex<[String: Info]>([:])
    let capacity = 10_000

    func info(of media: String) -> Info? {
        known.withLock { $0[media] }
    }

    func remember(_ info: Info, for media: String) {
        known.withLock { table in
            if table.count >= capacity { table.removeAll() }
            table[media] = info
        }
    }

    /// The hex SHA-1 XEP-0084 names an image by.
    static func id(of bytes: [UInt8]) -> String {
        CryptoHash.sha1.digest(bytes).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
