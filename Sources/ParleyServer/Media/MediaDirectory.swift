import Foundation
import ParleyCore

/// Uploaded files in one directory, named by their server-chosen ids.
struct MediaDirectory: MediaFileStoring {
    let path: String

    init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func save(id: String, bytes: [UInt8]) throws {
        // Write to a temporary name, sync, then rename: a crash leaves either no file or the
        // whole file, never a torn one under the final name.
        let final = path + "/" + id
        let temporary = final + ".part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MediaDirectoryError.io("open", errno) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw MediaDirectoryError.io("write", code)
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            unlink(temporary)
            throw MediaDirectoryError.io("fsync", code)
        }
        close(fd)
        guard rename(temporary, final) == 0 else { throw MediaDirectoryError.io("rename", errno) }
        syncDirectory()
    }

    func adopt(id: String, from temporary: String) throws {
        // Synced before the rename, as `save` does: the name never points at a torn file.
        let fd = open(temporary, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw MediaDirectoryError.io("open", errno) }
        let synced = fsync(fd) == 0
        let code = errno
        close(fd)
        guard synced else { throw MediaDirectoryError.io("fsync", code) }
        guard rename(temporary, path + "/" + id) == 0 else { throw MediaDirectoryError.io("rename", errno) }
        syncDirectory()
    }

    func prefix(ofFileAt file: String, count: Int) throws -> [UInt8] {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw MediaDirectoryError.io("open", errno) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(fd, $0 + total, count - total) } ?? 0
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaDirectoryError.io("read", errno)
            }
            if n == 0 { break }
            total += n
        }
        return Array(bytes[..<total])
    }

    func path(id: String) -> String? {
        path + "/" + id
    }

    /// Makes a rename in the directory durable.
    private func syncDirectory() {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    func delete(id: String) throws {
        // The thumbnail first: it is only ever made while the original is there.
        unlink(thumbnailPath(id: id))
        guard unlink(path + "/" + id) == 0 || errno == ENOENT else { throw MediaDirectoryError.io("unlink", errno) }
    }

    /// Where the thumbnail of upload `id` is kept (`Thumbnails`); ids have no dot, so no
    /// upload has this name.
    func thumbnailPath(id: String) -> String {
        path + "/" + id + ".thumbnail"
    }

    func load(id: String) throws -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path + "/" + id) else { return nil }
        return Array(data)
    }
}

enum MediaDirectoryError: Error, CustomStringConvertible {
    case io(String, Int32)
    var description: String {
        switch self {
        case .io(let call, let code): return "media file \(call) failed (errno \(code))"
        }
    }
}
