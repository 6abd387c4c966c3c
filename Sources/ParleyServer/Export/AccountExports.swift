import Foundation
import ParleyCore
import ParleyProtocol
import ParleyNet
import ParleySync

/// Account exports (`POST /v1/me/export`, `GET /v1/me/export`): one per user at a time, built
/// in the background into a ZIP under `<data>/exports`, kept for `lifetime` and then removed.
/// What is being built or ready is known to this server only (its memory and its disk): in a
/// cluster the download must reach the server that built it (docs/operations.md).
final class AccountExports: Sendable {
    private enum State: Sendable {
        case building(progress: Double)
        case ready(path: String, expiresAt: Int64, size: Int)
        case failed(ProtocolError)
    }

    struct Rules: Sendable {
        /// Milliseconds a finished export is kept.
        var lifetime: Int64 = 86_400_000
        /// Largest archive; a larger one fails with `payload_too_large`.
        var maxBytes = 256 << 20
        /// Most messages in one export.
        var maxMessages = 1_000_000
    }

    private let jobs = PThreadMutex<[UserID: State]>([:])
    private let directory: String
    private let gateway: StoreGateway
    private let media: MediaService
    private let blocking: BlockingExecutor
    private let rules: Rules
    private let clock: WallClock
    private let logger: Logger

    init(directory: String, store: any Store, blocking: BlockingExecutor, media: MediaService, rules: Rules,
         clock: @escaping WallClock, logger: Logger) throws {
        self.directory = directory
        gateway = StoreGateway(store: store, blocking: blocking)
        self.media = media
        self.blocking = blocking
        self.rules = rules
        self.clock = clock
        self.logger = logger
        // What a previous run built is unknown to this one: it goes.
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Starts building the user's export, unless one is being built already; the status.
    func start(for user: UserID) -> ExportStatus {
        sweep()
        let (status, begin, old): (ExportStatus, Bool, String?) = jobs.withLock { table in
            if case .building(let progress) = table[user] {
                return (ExportStatus(status: "building", progress: progress), false, nil)
            }
            var old: String?
            if case .ready(let path, _, _) = table[user] { old = path }
            table[user] = .building(progress: 0)
            return (ExportStatus(status: "building", progress: 0), true, old)
        }
        if let old { try? FileManager.default.removeItem(atPath: old) }
        if begin { Task.detached { await self.build(for: user) } }
        return status
    }

    /// What `GET /v1/me/export` answers: the file when ready, else the status (nil: none).
    func current(for user: UserID) async throws(ProtocolError) -> (ExportStatus, [UInt8]?)? {
        sweep()
        let state = jobs.withLock { $0[user] }
        switch state {
        case nil: return nil
        case .building(let progress): return (ExportStatus(status: "building", progress: progress), nil)
        case .failed(let error): throw error
        case .ready(let path, let expiresAt, let size):
            let bytes: [UInt8]
            do {
                bytes = try await blocking.run { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
            } catch {
                throw ProtocolError(.notFound, "the export is gone; start a new one")
            }
            return (ExportStatus(status: "ready", progress: 1, expiresAt: expiresAt, size: size), bytes)
        }
    }

    private func build(for user: UserID) async {
        do {
            let export = try await AccountExport.read(user, from: gateway, maxMessages: rules.maxMessages) { share in
                // Reading is most of the work; writing the files takes the last tenth.
                self.jobs.withLock { table in
                    if case .building = table[user] { table[user] = .building(progress: share * 0.9) }
                }
            }
            var files: [(String, [UInt8])] = []
            for id in export.mediaIDs {
                guard let (stored, bytes) = try? await media.download(id: id) else { continue }
                files.append(("media/\(id).\(stored.fileExtension)", bytes))
            }
            let now = clock()
            let path = directory + "/\(user.rawValue)-\(now).zip"
            let maxBytes = rules.maxBytes
            let size = try await blocking.run { [files] () throws -> Int in
                var zip = ZipWriter(date: Date(timeIntervalSince1970: Double(now) / 1000))
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try zip.add("account.json", Array(try encoder.encode(export.account)))
                try zip.add("friends.json", Array(try encoder.encode(export.friends)))
                try zip.add("groups.json", Array(try encoder.encode(export.groups)))
                try zip.add("personal-events.json", Array(try encoder.encode(export.personalEvents)))
                for conversation in export.conversations {
                    try zip.add("conversations/\(conversation.conversationId).json", Array(try encoder.encode(conversation)))
                }
                for (name, bytes) in files { try zip.add(name, bytes) }
                zip.finish()
                guard zip.bytes.count <= maxBytes else { throw ProtocolError(.payloadTooLarge, "the export is larger than the server allows") }
                try Data(zip.bytes).write(to: URL(fileURLWithPath: path))
                return zip.bytes.count
            }
            jobs.withLock { $0[user] = .ready(path: path, expiresAt: now + rules.lifetime, size: size) }
            logger.info("account export ready", ["user": .string(user.description), "bytes": .int(size)])
        } catch {
            let failure = (error as? ProtocolError) ?? (error as? ZipWriter.Failure).map { _ in
                ProtocolError(.payloadTooLarge, "the export is larger than the server allows")
            } ?? ProtocolError(.internalError, "the export could not be built")
            jobs.withLock { $0[user] = .failed(failure) }
            logger.warning("account export failed", ["user": .string(user.description), "error": .string(failure.code.rawValue)])
        }
    }

    /// Removes expired exports, record and file.
    private func sweep() {
        let now = clock()
        let expired: [String] = jobs.withLock { table in
            var paths: [String] = []
            for (user, state) in table {
                if case .ready(let path, let expiresAt, _) = state, expiresAt <= now {
                    paths.append(path)
                    table[user] = nil
                }
            }
            return paths
        }
        for path in expired { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Forgets a deleted account's export and removes its file.
    func forget(_ user: UserID) {
        let state = jobs.withLock { $0.removeValue(forKey: user) }
        if case .ready(let path, _, _) = state { try? FileManager.default.removeItem(atPath: path) }
    }
}
