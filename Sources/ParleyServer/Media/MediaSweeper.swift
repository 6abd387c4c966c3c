import ParleyCore
import ParleyNet

/// Removes uploads nobody used (`MediaService.removeUnused`), and resumable uploads left
/// unfinished past their expiry, every ten minutes while the server runs. Each node of a
/// cluster sweeps; a record is removed once, by whichever gets to it first.
final class MediaSweeper: Sendable {
    private let task: Task<Void, Never>

    static let interval = Duration.seconds(600)

    init(media: MediaService, uploads: ResumableUploads? = nil, logger: Logger) {
        task = Task.detached(priority: .background) {
            while !Task.isCancelled {
                // Resumable uploads no piece reached for `--upload-expiry-seconds`.
                if let uploads {
                    let expired = await uploads.removeExpired()
                    if expired > 0 { logger.info("expired resumable uploads removed", ["count": .int(expired)]) }
                }
                do {
                    let removed = try await media.removeUnused()
                    if removed > 0 { logger.info("unused uploads removed", ["count": .int(removed)]) }
                } catch {
                    logger.warning("removing unused uploads failed", ["error": .string("\(error)")])
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
    }

    /// Stops sweeping (a sweep under way finishes its current store call).
    func stop() {
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}
