public import ParleyProtocol

/// Where uploaded bytes live (files in the server; blocking calls, run through the
/// executor).
public protocol MediaFileStoring: Sendable {
    /// Stores `bytes` under `id` durably (written and synced before returning).
    func save(id: String, bytes: [UInt8]) throws
    /// The bytes stored under `id`, or nil.
    func load(id: String) throws -> [UInt8]?
}

/// Image uploads: the type is sniffed from the bytes, the size bounded, the name chosen by
/// the server.
public final class MediaService: Sendable {
    let store: Store
    let files: MediaFileStoring
    let secrets: SecretGenerating
    let blocking: BlockingExecutor
    let clock: WallClock
    /// Largest upload in bytes.
    public let maxBytes: Int

    public init(store: Store, files: MediaFileStoring, secrets: SecretGenerating, blocking: BlockingExecutor,
                maxBytes: Int, clock: @escaping WallClock) {
        self.store = store
        self.files = files
        self.secrets = secrets
        self.blocking = blocking
        self.maxBytes = maxBytes
        self.clock = clock
    }

    /// Stores an image uploaded by `owner`, under `id` when one was chosen before the bytes
    /// came (an upload slot's, whose download link was handed out already), else a new one.
    public func upload(_ bytes: [UInt8], owner: UserID, id: String? = nil) async throws(ProtocolError) -> MediaInfo {
        guard !bytes.isEmpty else { throw ProtocolError(.unsupportedMediaType, "the upload is empty") }
        guard bytes.count <= maxBytes else {
            throw ProtocolError(.payloadTooLarge, "an image may have at most \(maxBytes) bytes")
        }
        guard let image = ImageSniffer.sniff(bytes) else {
            throw ProtocolError(.unsupportedMediaType, "only PNG, JPEG, GIF and WebP images are accepted")
        }
        let media = StoredMedia(id: id ?? secrets.identifier(), ownerID: owner, type: image.type, width: image.width,
                                height: image.height, size: bytes.count, createdAt: clock())
        do {
            // The file first: a record must never point at bytes that are not there.
            try await blocking.run { [files] in try files.save(id: media.id, bytes: bytes) }
            try await store.write { writer in try writer.insertMedia(media) }
        } catch {
            throw StoreGateway.translate(error)
        }
        return media.info
    }

    /// An image's record and bytes.
    public func download(id: String) async throws(ProtocolError) -> (StoredMedia, [UInt8]) {
        let notFound = ProtocolError(.notFound, "no such media")
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" }) else {
            throw notFound
        }
        do {
            guard let media = try await store.read({ reader in try reader.media(id: id) }),
                  let bytes = try await blocking.run({ [files] in try files.load(id: id) }) else { throw notFound }
            return (media, bytes)
        } catch {
            throw StoreGateway.translate(error)
        }
    }
}
