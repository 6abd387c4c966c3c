public import ParleyProtocol

/// Files of any type (`POST /v1/files`): the body arrives in a temporary file, is sniffed
/// there, and is moved into the media directory, never held in memory whole.
extension MediaService {
    /// Keeps the finished upload at `path` (`size` bytes, owned by `owner`) as a new media
    /// record: its type sniffed from its first bytes, its size checked against
    /// `maxFileBytes` and the owner's quotas and rate. The temporary file is moved on
    /// success; on failure the caller still owns it.
    public func uploadFile(at path: String, size: Int, owner: UserID, id: String? = nil) async throws(ProtocolError) -> MediaInfo {
        guard size <= maxFileBytes else {
            throw ProtocolError(.payloadTooLarge, "a file may have at most \(maxFileBytes) bytes")
        }
        let now = clock()
        if let wait = uploadRate.attempt(String(owner.rawValue), now: now) {
            throw ProtocolError(.rateLimited, "at most \(rules.uploadsPerMinute) uploads a minute", retryAfterSeconds: wait)
        }
        let prefix: [UInt8]
        do {
            prefix = try await blocking.run { [files] in try files.prefix(ofFileAt: path, count: FileSniffer.prefixBytes) }
        } catch {
            throw ProtocolError(.internalError, "the upload could not be read back")
        }
        let sniffed = FileSniffer.sniff(prefix)
        let media = StoredMedia(id: id ?? secrets.identifier(), ownerID: owner,
                                type: sniffed.image.map { .image($0.type) } ?? .file(mimeType: sniffed.mimeType),
                                width: sniffed.image?.width ?? 0, height: sniffed.image?.height ?? 0, size: size, createdAt: now)
        try await record(media, now: now) { [files] in try files.adopt(id: media.id, from: path) }
        return media.info
    }

    /// Refuses, before any byte of it is read, an upload of `size` bytes (0 when unknown) by
    /// `owner` that could not be kept: over `maxFileBytes` or over the owner's quotas.
    /// `uploadFile` checks again when the bytes are there; this only spares the transfer.
    public func checkUpload(size: Int, owner: UserID) async throws(ProtocolError) {
        guard size <= maxFileBytes else {
            throw ProtocolError(.payloadTooLarge, "a file may have at most \(maxFileBytes) bytes")
        }
        let now = clock()
        let rules = self.rules
        do {
            let usage = try await store.read { reader in try reader.mediaUsage(of: owner, since: now - Self.day) }
            try Self.checkQuota(usage, adding: size, now: now, rules: rules)
        } catch {
            throw StoreGateway.translate(error)
        }
    }

    /// Where the bytes of `id` are on disk with their record, for streaming a download;
    /// `not_found` as `download` says.
    public func locate(id: String) async throws(ProtocolError) -> (StoredMedia, String) {
        let notFound = ProtocolError(.notFound, "no such media")
        guard Self.isWellFormed(id: id) else { throw notFound }
        do {
            guard let media = try await store.read({ reader in try reader.media(id: id) }),
                  let path = files.path(id: id) else { throw notFound }
            return (media, path)
        } catch {
            throw StoreGateway.translate(error)
        }
    }

    /// Whether `id` could be one of ours (server-made ids are letters, digits, `-` and `_`).
    static func isWellFormed(id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "_" }
    }
}
