import Foundation
import ParleyCore
import ParleyProtocol

/// The thumbnails of large JPEG and PNG images (`ThumbnailRule`), made on first request on
/// the blocking pool and kept beside the original (`<id>.thumbnail` in the media
/// directory; removed with it). Two first requests at once both make it; each writes its own
/// temporary file and renames it into place, so the result is one whole file either way.
final class Thumbnails: Sendable {
    let directory: MediaDirectory
    let maker: ThumbnailMaker
    let blocking: BlockingExecutor
    /// Largest original read to make a thumbnail of (the larger of the upload limits).
    let maxSourceBytes: Int

    init(directory: MediaDirectory, maker: ThumbnailMaker, blocking: BlockingExecutor, maxSourceBytes: Int) {
        self.directory = directory
        self.maker = maker
        self.blocking = blocking
        self.maxSourceBytes = maxSourceBytes
    }

    /// The thumbnail of `media` (whose bytes are at `original`) as a record to serve and the
    /// path of its file: `payload_too_large` for an image over `--max-image-pixels`,
    /// `unsupported_media_type` for one that cannot be decoded.
    func thumbnail(of media: StoredMedia, original: String) async throws(ProtocolError) -> (StoredMedia, String) {
        let path = directory.thumbnailPath(id: media.id)
        let maker = self.maker, limit = maxSourceBytes
        let outcome: Result<Int, ThumbnailMaker.Failure>
        do {
            outcome = try await blocking.run { () throws -> Result<Int, ThumbnailMaker.Failure> in
                var status = stat()
                if stat(path, &status) == 0 { return .success(Int(status.st_size)) }
                guard media.size <= limit, let data = FileManager.default.contents(atPath: original) else {
                    return .failure(.undecodable("the original cannot be read"))
                }
                let made: (jpeg: [UInt8], width: Int, height: Int)
                do throws(ThumbnailMaker.Failure) {
                    made = try maker.thumbnail(of: Array(data))
                } catch {
                    return .failure(error)
                }
                try Self.write(made.jpeg, to: path)
                return .success(made.jpeg.count)
            }
        } catch {
            throw ProtocolError(.internalError, "the thumbnail could not be stored")
        }
        switch outcome {
        case .success(let size):
            let small = ThumbnailRule.size(width: media.width, height: media.height)
            // Its own ETag and default name: the record's id with a suffix (never an upload's id).
            let record = StoredMedia(id: media.id + "-thumbnail", ownerID: media.ownerID, type: .jpeg, width: small.width,
                                     height: small.height, size: size, createdAt: media.createdAt)
            return (record, path)
        case .failure(.tooManyPixels(let width, let height)):
            throw ProtocolError(.payloadTooLarge, "the image has \(width) × \(height) pixels; thumbnails are made of images of at most \(maker.maxPixels)")
        case .failure(.undecodable), .failure(.encoding):
            throw ProtocolError(.unsupportedMediaType, "the image cannot be decoded")
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it into place.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + "." + UUID().uuidString + ".part"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw MediaDirectoryError.io("create", errno)
        }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw MediaDirectoryError.io("rename", code)
        }
    }
}
