public import ParleyProtocol

/// Where uploaded bytes live (files in the server; blocking calls, run through the
/// executor).
public protocol MediaFileStoring: Sendable {
    /// Stores `bytes` under `id` durably (written and synced before returning).
    func save(id: String, bytes: [UInt8]) throws
    /// The bytes stored under `id`, or nil.
    func load(id: String) throws -> [UInt8]?
    /// Removes the bytes stored under `id` (nothing if there are none).
    func delete(id: String) throws
    /// Stores the file at `path` (a finished upload on the same file system) under `id`
    /// durably, moving it rather than copying it.
    func adopt(id: String, from path: String) throws
    /// Up to `count` bytes from the start of the file at `path`.
    func prefix(ofFileAt path: String, count: Int) throws -> [UInt8]
    /// Where the bytes of `id` are on disk, for serving them without reading them into
    /// memory; nil when they are not in a file.
    func path(id: String) -> String?
}

/// Image and voice uploads: the type is sniffed from the bytes, the size bounded, the name chosen by
/// the server; each user's uploads bounded by rate, by bytes a day and by bytes held; uploads
/// nobody used removed after a grace period.
public final class MediaService: Sendable {
    let store: Store
    let files: MediaFileStoring
    let secrets: SecretGenerating
    let blocking: BlockingExecutor
    let clock: WallClock
    public let rules: MediaRules
    let uploadRate: SlidingWindowLimiter
    /// Largest image upload in bytes.
    public var maxBytes: Int { rules.maxBytes }
    /// Largest file upload in bytes.
    public var maxFileBytes: Int { rules.maxFileBytes }

    static let day: Int64 = 86_400_000

    public init(store: Store, files: MediaFileStoring, secrets: SecretGenerating, blocking: BlockingExecutor,
                rules: MediaRules = MediaRules(), clock: @escaping WallClock) {
        self.store = store
        self.files = files
        self.secrets = secrets
        self.blocking = blocking
        self.rules = rules
        self.clock = clock
        uploadRate = SlidingWindowLimiter(limit: rules.uploadsPerMinute, windowSeconds: 60)
    }

    /// Stores an image or a voice recording uploaded by `owner`, under `id` when one was
    /// chosen before the bytes came (an upload slot's, whose download link was handed out
    /// already), else a new one.
    public func upload(_ bytes: [UInt8], owner: UserID, id: String? = nil) async throws(ProtocolError) -> MediaInfo {
        guard !bytes.isEmpty else { throw ProtocolError(.unsupportedMediaType, "the upload is empty") }
        guard bytes.count <= maxBytes else {
            throw ProtocolError(.payloadTooLarge, "an upload may have at most \(maxBytes) bytes")
        }
        let now = clock()
        let mediaID = id ?? secrets.identifier()
        let media: StoredMedia
        if let image = ImageSniffer.sniff(bytes) {
            guard image.width.multipliedReportingOverflow(by: image.height).partialValue <= rules.maxImagePixels,
                  image.width <= 1 << 20, image.height <= 1 << 20 else {
                throw ProtocolError(.payloadTooLarge, "an image may have at most \(rules.maxImagePixels) pixels (width × height)")
            }
            media = StoredMedia(id: mediaID, ownerID: owner, type: image.type, width: image.width, height: image.height,
                                size: bytes.count, createdAt: now)
        } else if let audio = AudioSniffer.sniff(bytes) {
            try Self.checkVoice(audio, bytes: bytes.count, rules: rules)
            media = StoredMedia(id: mediaID, ownerID: owner, type: .audio(audio.type), durationMs: audio.durationMs, width: 0,
                                height: 0, size: bytes.count, createdAt: now)
        } else {
            throw ProtocolError(.unsupportedMediaType,
                                "only PNG, JPEG, GIF and WebP images and Opus voice recordings (WebM or Ogg) are accepted")
        }
        if let wait = uploadRate.attempt(String(owner.rawValue), now: now) {
            throw ProtocolError(.rateLimited, "at most \(rules.uploadsPerMinute) uploads a minute", retryAfterSeconds: wait)
        }
        try await record(media, now: now) { [files] in try files.save(id: media.id, bytes: bytes) }
        return media.info
    }

    /// Checks the owner's quotas, puts the bytes in place with `put` (on the blocking pool),
    /// then stores the record; the file goes again if the record cannot be stored.
    func record(_ media: StoredMedia, now: Int64, put: @escaping @Sendable () throws -> Void) async throws(ProtocolError) {
        let rules = self.rules
        let owner = media.ownerID
        do {
            // A cheap look first, so an upload over quota writes no file.
            let usage = try await store.read { reader in try reader.mediaUsage(of: owner, since: now - Self.day) }
            try Self.checkQuota(usage, adding: media.size, now: now, rules: rules)
            // The file first: a record must never point at bytes that are not there.
            try await blocking.run { try put() }
            do {
                try await store.write { writer in
                    // Again inside the write: concurrent uploads of one user cannot pass it together.
                    try Self.checkQuota(try writer.mediaUsage(of: owner, since: now - Self.day), adding: media.size, now: now, rules: rules)
                    try writer.insertMedia(media)
                }
            } catch {
                try? await blocking.run { [files] in try files.delete(id: media.id) }
                throw error
            }
        } catch {
            throw StoreGateway.translate(error)
        }
    }

    /// A voice recording's own limits: bytes, and the length its container records.
    static func checkVoice(_ audio: AudioSniffer.Result, bytes: Int, rules: MediaRules) throws(ProtocolError) {
        guard bytes <= rules.maxVoiceBytes else {
            throw ProtocolError(.payloadTooLarge, "a voice recording may have at most \(rules.maxVoiceBytes) bytes")
        }
        guard audio.durationMs > 0 else {
            throw ProtocolError(.unsupportedMediaType, "the recording holds no sound")
        }
        guard audio.durationMs <= rules.maxVoiceMillis else {
            throw ProtocolError(.payloadTooLarge, "a voice recording may last at most \(rules.maxVoiceMillis / 1000) seconds")
        }
    }

    /// `quota_exceeded` when `bytes` more would pass the day's or the held bytes' quota.
    static func checkQuota(_ usage: MediaUsage, adding bytes: Int, now: Int64, rules: MediaRules) throws(ProtocolError) {
        if usage.heldBytes + Int64(bytes) > rules.bytesHeld {
            throw ProtocolError(.quotaExceeded, "your uploads may take at most \(rules.bytesHeld) bytes; uploads no message or avatar uses are removed after a while")
        }
        if usage.recentBytes + Int64(bytes) > rules.bytesPerDay {
            // When the oldest upload of the window leaves it (a lower bound: it may take more).
            let wait = usage.oldestRecentAt.map { max(1, Int(($0 + day - now + 999) / 1000)) } ?? 60
            throw ProtocolError(.quotaExceeded, "at most \(rules.bytesPerDay) bytes of uploads a day", retryAfterSeconds: wait)
        }
    }

    /// Removes uploads older than the grace period that no message or avatar uses, record
    /// first (so nothing points at a missing file), then file; returns how many.
    @discardableResult
    public func removeUnused(limit: Int = 500) async throws(ProtocolError) -> Int {
        guard rules.orphanGraceMillis > 0 else { return 0 }
        let cutoff = clock() - rules.orphanGraceMillis
        do {
            let candidates = try await store.read { reader in try reader.unreferencedMedia(createdBefore: cutoff, limit: limit) }
            guard !candidates.isEmpty else { return 0 }
            // A use may have come since the read: only records still unused go.
            let removed = try await store.write { writer in
                try candidates.filter { try writer.deleteUnreferencedMedia(id: $0.id) }.map(\.id)
            }
            try await blocking.run { [files] in
                for id in removed { try? files.delete(id: id) }
            }
            return removed.count
        } catch {
            throw StoreGateway.translate(error)
        }
    }
    /// Deletes the files of uploads whose records are gone (an erased account's); a file
    /// already missing is no failure.
    public func removeFiles(_ ids: [String]) async {
        guard !ids.isEmpty else { return }
        _ = try? await blocking.run { [files] in
            for id in ids { try? files.delete(id: id) }
        }
    }

    /// An image's record and bytes.
    public func download(id: String) async throws(ProtocolError) -> (StoredMedia, [UInt8]) {
        let notFound = ProtocolError(.notFound, "no such media")
        guard Self.isWellFormed(id: id) else { throw notFound }
        do {
            guard let media = try await store.read({ reader in try reader.media(id: id) }),
                  let bytes = try await blocking.run({ [files] in try files.load(id: id) }) else { throw notFound }
            return (media, bytes)
        } catch {
            throw StoreGateway.translate(error)
        }
    }
}
