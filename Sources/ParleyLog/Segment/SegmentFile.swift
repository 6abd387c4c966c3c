import Glibc

/// One segment file of the log, owning its descriptor. A segment starts with a 16-byte
/// header (`PLOG`, format version 1, its number) and then holds records back to back.
final class SegmentFile: @unchecked Sendable {
    // @unchecked Sendable: `fd` never changes after init; positioned reads (`pread`) are
    // safe from any thread; writes, syncs and truncation happen only on the log's one
    // writing thread (the group commit's leader, or recovery before the log is shared).
    // `size` is written only there, and read by readers only under the log's index lock,
    // which the writer holds when it publishes a new size.

    static let headerSize = 16
    private static let magic: [UInt8] = Array("PLOG".utf8)
    private static let version: UInt16 = 1

    let number: UInt64
    let path: String
    let fd: Int32
    /// Bytes in the file that belong to the log (the header and whole records).
    var size: Int

    private init(number: UInt64, path: String, fd: Int32, size: Int) {
        self.number = number
        self.path = path
        self.fd = fd
        self.size = size
    }

    deinit { Glibc.close(fd) }

    /// The file name of segment `number`: its number zero-padded, so names sort as numbers.
    static func name(_ number: UInt64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".log"
    }

    /// Segment number of a file name, or nil for other files.
    static func number(ofName name: String) -> UInt64? {
        guard name.hasSuffix(".log"), name.count == 24 else { return nil }
        return UInt64(name.dropLast(4))
    }

    /// Creates segment `number` in `directory` with its header, synced, and the directory
    /// entry synced too, so the new file survives a crash before its first record.
    static func create(number: UInt64, in directory: String) throws(LogError) -> SegmentFile {
        let path = directory + "/" + name(number)
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system(operation: "create \(path)", errno: errno) }
        let file = SegmentFile(number: number, path: path, fd: fd, size: 0)
        try file.writeHeader()
        try syncDirectory(directory)
        return file
    }

    /// Opens an existing segment; `size` is the file's length until recovery sets it.
    static func open(number: UInt64, in directory: String) throws(LogError) -> SegmentFile {
        let path = directory + "/" + name(number)
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw .system(operation: "open \(path)", errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            Glibc.close(fd)
            throw .system(operation: "stat \(path)", errno: errno)
        }
        return SegmentFile(number: number, path: path, fd: fd, size: Int(info.st_size))
    }

    /// Writes the header at offset 0 (a new segment, or one whose header was torn) and syncs.
    func writeHeader() throws(LogError) {
        var header = Self.magic
        header.append(UInt8(Self.version & 0xFF))
        header.append(UInt8(Self.version >> 8))
        header.append(contentsOf: [0, 0])
        for index in 0..<8 { header.append(UInt8(truncatingIfNeeded: number >> (8 * UInt64(index)))) }
        try truncate(to: 0)
        try write(header, at: 0)
        size = Self.headerSize
        try sync()
    }

    /// Whether the first bytes of `bytes` are this segment's header.
    func headerIsValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= Self.headerSize, Array(bytes[0..<4]) == Self.magic,
              RecordCodec.read(bytes, 4, 2) == UInt64(Self.version) else { return false }
        return RecordCodec.read(bytes, 8, 8) == number
    }

    /// Writes all of `bytes` at `offset` (repeating short writes).
    func write(_ bytes: [UInt8], at offset: Int) throws(LogError) {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "write \(path)", errno: errno)
            }
            done += count
        }
    }

    /// Reads `count` bytes at `offset` (fewer only at the end of the file).
    func read(count: Int, at offset: Int) throws(LogError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read \(path)", errno: errno)
            }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[0..<done])
    }

    /// `fdatasync`: the data written so far (and the size) is on disk when it returns.
    func sync() throws(LogError) {
        while fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw .system(operation: "fdatasync \(path)", errno: errno)
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(LogError) {
        while ftruncate(fd, off_t(length)) != 0 {
            if errno == EINTR { continue }
            throw .system(operation: "truncate \(path)", errno: errno)
        }
        size = length
    }

    /// Syncs a directory, so that files created or renamed in it stay after a crash.
    static func syncDirectory(_ directory: String) throws(LogError) {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(operation: "open \(directory)", errno: errno) }
        defer { Glibc.close(fd) }
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw .system(operation: "fsync \(directory)", errno: errno)
        }
    }
}
