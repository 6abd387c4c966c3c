import Foundation
import Glibc
import ParleyCore
import ParleyProtocol
import ParleySync

/// Uploads that arrive in pieces over several requests and survive a dropped connection or
/// a restart of the server (`docs/protocol.md`, "Resumable uploads").
///
/// Each unfinished upload is two files in its directory: `<id>.data`, the bytes so far,
/// and `<id>.json`, its owner, length and the offset up to which the bytes were synced.
/// A piece (`PATCH`) arrives in a temporary file like any streamed body and is appended
/// here, synced, and only then counted; a piece cut off adds nothing. The last piece turns
/// the data file into an upload like `POST /v1/files`'s (`MediaService.uploadFile`: sniffing,
/// limits, quotas, a rename into the media directory).
final class ResumableUploads: Sendable {
    /// What is kept of an unfinished upload beside its bytes.
    struct Record: Codable, Sendable {
        var owner: Int64
        var size: Int
        var name: String?
        /// Bytes of `<id>.data` that were synced: the upload's offset.
        var offset: Int
        /// The last time a piece arrived (or the creation), ms since the epoch.
        var updatedAt: Int64
    }

    /// The route of the uploads; one upload is `<path>/<id>`.
    static let path = "/v1/file-uploads"

    let directory: String
    private let media: MediaService
    private let blocking: BlockingExecutor
    private let expiryMillis: Int64
    private let maxPerUser: Int
    private let clock: WallClock
    /// The unfinished uploads by id, as on disk, and the ids a piece is being appended to.
    private let state: PThreadMutex<(records: [String: Record], busy: Set<String>)>

    /// Opens (making it when missing) the directory and loads the uploads a previous run
    /// left; files without their partner are removed.
    init(directory: String, media: MediaService, blocking: BlockingExecutor, expirySeconds: Int, maxPerUser: Int,
         clock: @escaping WallClock) throws {
        self.directory = directory
        self.media = media
        self.blocking = blocking
        self.expiryMillis = Int64(expirySeconds) * 1000
        self.maxPerUser = maxPerUser
        self.clock = clock
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var records: [String: Record] = [:]
        let names = (try? files.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasSuffix(".json") {
            let id = String(name.dropLast(5))
            guard let data = files.contents(atPath: directory + "/" + name),
                  var record = try? JSONDecoder().decode(Record.self, from: data),
                  let attributes = try? files.attributesOfItem(atPath: directory + "/" + id + ".data"),
                  let length = (attributes[.size] as? NSNumber)?.intValue else { continue }
            // Bytes past the synced offset may be torn: the next piece overwrites them.
            record.offset = min(record.offset, length)
            records[id] = record
        }
        for name in names {
            let id = name.hasSuffix(".json") ? String(name.dropLast(5)) : name.hasSuffix(".data") ? String(name.dropLast(5)) : name
            if records[id] == nil { try? files.removeItem(atPath: directory + "/" + name) }
        }
        state = PThreadMutex((records, []))
    }

    private func dataPath(_ id: String) -> String { directory + "/" + id + ".data" }
    private func recordPath(_ id: String) -> String { directory + "/" + id + ".json" }

    private func status(_ id: String, _ record: Record, media: MediaInfo? = nil) -> FileUploadStatus {
        FileUploadStatus(id: id, offset: record.offset, size: record.size, expiresAt: record.updatedAt + expiryMillis, media: media)
    }

    /// The id of the upload a path names (`/v1/file-uploads/<id>`), if it is one.
    static func id(inPath path: some StringProtocol) -> String? {
        let prefix = Self.path + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let id = String(path.dropFirst(prefix.count))
        // Ids are made here (base64url): anything else names no upload.
        let wellFormed = !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == 0x2d || $0 == 0x5f }
        return wellFormed ? id : nil
    }

    /// Starts an upload of `size` bytes for `owner`.
    func create(owner: UserID, size: Int, name: String?) async throws(ProtocolError) -> FileUploadStatus {
        guard size >= 0 else { throw ProtocolError(.invalidField, "the size is negative", field: "size") }
        if let name, name.utf8.count > 1024 {
            throw ProtocolError(.invalidField, "a file name may have at most 1024 bytes", field: "name")
        }
        try await media.checkUpload(size: size, owner: owner)
        let id = SecureRandom.token(byteCount: 16)
        let record = Record(owner: owner.rawValue, size: size, name: name, offset: 0, updatedAt: clock())
        let reserved = state.withLock { state -> Bool in
            guard state.records.values.filter({ $0.owner == owner.rawValue }).count < maxPerUser else { return false }
            state.records[id] = record
            state.busy.insert(id)
            return true
        }
        guard reserved else {
            throw ProtocolError(.quotaExceeded, "at most \(maxPerUser) unfinished uploads at once; finish or delete one")
        }
        defer { state.withLock { _ = $0.busy.remove(id) } }
        do {
            try await blocking.run { [directory] in
                let fd = open(directory + "/" + id + ".data", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard fd >= 0 else { throw UploadDiskError.io("open", errno) }
                close(fd)
                try Self.write(record, to: directory + "/" + id + ".json")
            }
        } catch {
            state.withLock { _ = $0.records.removeValue(forKey: id) }
            throw ProtocolError(.internalError, "the upload could not be started")
        }
        return status(id, record)
    }

    /// The upload `id` of `owner` (another user's is `not_found`, as if it did not exist).
    func status(id: String, owner: UserID) throws(ProtocolError) -> FileUploadStatus {
        let record = try self.record(id: id, owner: owner)
        return status(id, record)
    }

    private func record(id: String, owner: UserID) throws(ProtocolError) -> Record {
        guard let record = state.withLock({ $0.records[id] }), record.owner == owner.rawValue else {
            throw ProtocolError(.notFound, "no such upload (it may have expired)")
        }
        return record
    }

    /// Whether a piece of `length` bytes (nil: unknown) starting at `offset` may come, from
    /// the request's head alone.
    func checkPiece(id: String, owner: UserID, offset: Int, length: Int?) throws(ProtocolError) {
        let record = try self.record(id: id, owner: owner)
        guard offset == record.offset else {
            throw ProtocolError(.uploadOffsetMismatch, "the upload stands at \(record.offset)")
        }
        if let length, offset + length > record.size {
            throw ProtocolError(.payloadTooLarge, "the upload has \(record.size) bytes; this piece would go past its end")
        }
    }

    /// Appends the piece in the temporary file `piece` (`count` bytes, removed in any case)
    /// at `offset`; when that completes the upload, keeps it as media.
    func append(id: String, owner: UserID, offset: Int, piece: String, count: Int) async throws(ProtocolError) -> FileUploadStatus {
        defer { unlink(piece) }
        let claimed = state.withLock { state -> Bool in
            guard !state.busy.contains(id) else { return false }
            state.busy.insert(id)
            return true
        }
        guard claimed else { throw ProtocolError(.uploadOffsetMismatch, "another piece of this upload is arriving") }
        defer { state.withLock { _ = $0.busy.remove(id) } }
        var record = try self.record(id: id, owner: owner)
        try checkPiece(id: id, owner: owner, offset: offset, length: count)
        if count > 0 {
            record.offset = offset + count
            record.updatedAt = clock()
            let updated = record
            do {
                try await blocking.run { [dataPath = dataPath(id), recordPath = recordPath(id)] in
                    try Self.append(piece, to: dataPath, at: offset)
                    try Self.write(updated, to: recordPath)
                }
            } catch {
                throw ProtocolError(.internalError, "the piece could not be stored")
            }
            state.withLock { $0.records[id] = updated }
        }
        guard record.offset == record.size else { return status(id, record) }
        // Complete: a failure here (a quota, the rate) leaves the upload whole; an empty
        // piece at its end asks again.
        let info = try await media.uploadFile(at: dataPath(id), size: record.size, owner: owner)
        state.withLock { _ = $0.records.removeValue(forKey: id) }
        try? await blocking.run { [recordPath = recordPath(id)] in _ = unlink(recordPath) }
        return status(id, record, media: info)
    }

    /// Drops the upload `id` of `owner` and its bytes.
    func cancel(id: String, owner: UserID) async throws(ProtocolError) {
        _ = try self.record(id: id, owner: owner)
        let removed = state.withLock { state -> Bool in
            guard !state.busy.contains(id) else { return false }
            return state.records.removeValue(forKey: id) != nil
        }
        guard removed else { throw ProtocolError(.uploadOffsetMismatch, "a piece of this upload is arriving") }
        await remove(id)
    }

    /// Drops the uploads no piece reached for the expiry time; returns how many.
    @discardableResult
    func removeExpired() async -> Int {
        let cutoff = clock() - expiryMillis
        let expired = state.withLock { state -> [String] in
            let ids = state.records.filter { $0.value.updatedAt < cutoff && !state.busy.contains($0.key) }.map(\.key)
            for id in ids { state.records.removeValue(forKey: id) }
            return ids
        }
        for id in expired { await remove(id) }
        return expired.count
    }

    /// How many unfinished uploads there are (for tests and metrics).
    var count: Int { state.withLock { $0.records.count } }

    private func remove(_ id: String) async {
        _ = try? await blocking.run { [dataPath = dataPath(id), recordPath = recordPath(id)] in
            unlink(recordPath)
            unlink(dataPath)
        }
    }

    // MARK: Disk (on the blocking pool)

    /// Copies the file at `source` into `target` from `offset` on (cutting whatever lies
    /// past `offset`: bytes a crash left unsynced), then syncs `target`.
    static func append(_ source: String, to target: String, at offset: Int) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { throw UploadDiskError.io("open", errno) }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard output >= 0 else { throw UploadDiskError.io("open", errno) }
        defer { close(output) }
        guard ftruncate(output, off_t(offset)) == 0 else { throw UploadDiskError.io("ftruncate", errno) }
        guard lseek(output, off_t(offset), SEEK_SET) >= 0 else { throw UploadDiskError.io("lseek", errno) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UploadDiskError.io("read", errno)
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let n = buffer.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, count - written) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw UploadDiskError.io("write", errno)
                }
                written += n
            }
        }
        guard fsync(output) == 0 else { throw UploadDiskError.io("fsync", errno) }
    }

    /// Writes `record` to `path` whole or not at all (a synced temporary file, renamed).
    static func write(_ record: Record, to path: String) throws {
        let bytes = Array(try JSONEncoder().encode(record))
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw UploadDiskError.io("open", errno) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = written == bytes.count && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw UploadDiskError.io("write", errno)
        }
    }
}

/// A file operation of `ResumableUploads` failed (the call and its errno).
enum UploadDiskError: Error {
    case io(String, Int32)
}
