public import ParleyProtocol
import ParleySync

/// Upload slots (for XMPP's HTTP upload, XEP-0363): a signed-in user asks for one, giving
/// the size of a file of any type, and gets a single-use, expiring, unguessable token to
/// `PUT` the bytes with (no session needed) and the link the file will have. The bytes,
/// streamed to disk as they arrive, then go through `MediaService.uploadFile` like
/// `POST /v1/files`: type sniffed from the bytes, `--max-file-bytes`, the quotas, moved into
/// place and synced before the record. Slots live in this server's memory: one lost in a
/// restart is asked for again.
public final class UploadSlots: Sendable {
    /// The named limits of slots.
    public struct Rules: Sendable, Equatable {
        /// How long a slot may be used after it was granted, in milliseconds.
        public var lifetime: Int64 = 300_000
        /// Unused, unexpired slots one user may hold at once.
        public var perUser = 10

        public init() {}
    }

    /// A granted slot: the secret to upload with, and the id the image will have.
    public struct Slot: Sendable, Equatable {
        public var token: String
        public var mediaID: String
        public var owner: UserID
        /// Bytes the upload must have.
        public var size: Int
        public var expiresAt: Int64
    }

    private let media: MediaService
    private let secrets: SecretGenerating
    private let clock: WallClock
    public let rules: Rules
    /// Slots by the hash of their token, so the tokens themselves are kept nowhere.
    private let slots = PThreadMutex<[[UInt8]: Slot]>([:])

    public init(media: MediaService, secrets: SecretGenerating, rules: Rules, clock: @escaping WallClock) {
        self.media = media
        self.secrets = secrets
        self.rules = rules
        self.clock = clock
    }

    /// The largest file a slot may be granted for (`--max-file-bytes`).
    public var maxBytes: Int { media.maxFileBytes }

    /// Grants `owner` a slot for a file of `size` bytes, of any type: a declared content
    /// type counts for nothing, the bytes are sniffed when they come.
    public func grant(to owner: UserID, size: Int, contentType: String?) throws(ProtocolError) -> Slot {
        guard size > 0 else { throw ProtocolError(.invalidField, "the size is a positive number of bytes", field: "size") }
        guard size <= maxBytes else {
            throw ProtocolError(.payloadTooLarge, "a file may have at most \(maxBytes) bytes")
        }
        let now = clock()
        let slot = Slot(token: secrets.token(), mediaID: secrets.identifier(), owner: owner, size: size, expiresAt: now + rules.lifetime)
        let key = secrets.hash(slot.token)
        let perUser = rules.perUser
        try slots.withLock { (slots) throws(ProtocolError) in
            slots = slots.filter { $0.value.expiresAt > now }
            guard slots.values.count(where: { $0.owner == owner }) < perUser else {
                throw ProtocolError(.rateLimited, "at most \(perUser) upload slots at once: use or let some expire first")
            }
            slots[key] = slot
        }
        return slot
    }

    /// Keeps the upload of the slot `token` names, whose body arrived in the temporary file
    /// at `path` (`size` bytes); the slot is used up whatever the outcome (a failed upload
    /// asks for a new one). Unknown or used: `not_found`; expired: `forbidden`; not the
    /// size granted: `invalid_field`; then `MediaService.uploadFile`'s checks. On failure
    /// the caller still owns the temporary file.
    public func upload(token: String, path: String, size: Int) async throws(ProtocolError) -> MediaInfo {
        let key = secrets.hash(token)
        guard let slot = slots.withLock({ $0.removeValue(forKey: key) }) else {
            throw ProtocolError(.notFound, "no such upload slot (each is used once)")
        }
        guard clock() < slot.expiresAt else { throw ProtocolError(.forbidden, "this upload slot has expired; ask for a new one") }
        if size > maxBytes {
            throw ProtocolError(.payloadTooLarge, "a file may have at most \(maxBytes) bytes")
        }
        guard size == slot.size else {
            throw ProtocolError(.invalidField, "the slot is for \(slot.size) bytes, the upload has \(size)", field: "size")
        }
        return try await media.uploadFile(at: path, size: size, owner: slot.owner, id: slot.mediaID)
    }
}
