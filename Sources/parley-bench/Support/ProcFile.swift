import Glibc

/// Reads small kernel-generated files (`/proc/...`). They report a size of 0, so they are
/// read until end of file rather than by their stated length.
enum ProcFile {
    /// The whole file as text.
    static func read(_ path: String) throws(BenchError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read \(path): errno \(errno)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
