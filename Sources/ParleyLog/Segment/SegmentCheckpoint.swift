import Glibc

/// The segment log's index as of a position in the log (`index.checkpoint`), so that
/// opening a large log scans only the records after it. Little-endian: `PLCK`, version u32,
/// segment u64, offset u64, conversations u64, then per conversation its id, first seq,
/// record count and positions (u64 each), and a CRC-32C of everything before it. A
/// checkpoint that fails its checksum is ignored (the log is scanned whole).
struct SegmentCheckpoint {
    static let fileName = "index.checkpoint"
    private static let magic: [UInt8] = Array("PLCK".utf8)

    var index: SegmentIndex
    var segment: UInt64
    var offset: Int

    /// Writes the checkpoint atomically: a temporary file, synced, renamed over the old one,
    /// and the directory synced.
    func write(to directory: String) throws(LogError) {
        var bytes = Self.magic
        func put(_ value: UInt64) { for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) } }
        bytes.append(contentsOf: [1, 0, 0, 0])
        put(segment)
        put(UInt64(offset))
        put(UInt64(index.entries.count))
        for (conversation, entry) in index.entries {
            put(conversation)
            put(entry.firstSeq)
            put(UInt64(entry.positions.count))
            for position in entry.positions { put(position) }
        }
        let crc = CRC32C.checksum(bytes)
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index)))) }
        let temporary = directory + "/" + Self.fileName + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system(operation: "create \(temporary)", errno: errno) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 {
                if errno == EINTR { continue }
                let failure = errno
                close(fd)
                throw .system(operation: "write \(temporary)", errno: failure)
            }
            done += count
        }
        let synced = fsync(fd) == 0
        let failure = errno
        close(fd)
        guard synced else { throw .system(operation: "fsync \(temporary)", errno: failure) }
        guard rename(temporary, directory + "/" + Self.fileName) == 0 else {
            throw .system(operation: "rename \(temporary)", errno: errno)
        }
        try SegmentFile.syncDirectory(directory)
    }

    /// The checkpoint in `directory`, or nil if there is none or it is damaged.
    static func read(from directory: String) -> SegmentCheckpoint? {
        let path = directory + "/" + fileName
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard bytes.count >= 36, Array(bytes[0..<4]) == magic else { return nil }
        let body = Array(bytes[0..<(bytes.count - 4)])
        let stored = bytes.withUnsafeBytes { UInt32(RecordCodec.read($0, bytes.count - 4, 4)) }
        guard CRC32C.checksum(body) == stored else { return nil }
        return body.withUnsafeBytes { raw -> SegmentCheckpoint? in
            var cursor = 8
            func next() -> UInt64? {
                guard cursor + 8 <= raw.count else { return nil }
                defer { cursor += 8 }
                return RecordCodec.read(raw, cursor, 8)
            }
            guard let segment = next(), let offset = next(), let conversations = next() else { return nil }
            var index = SegmentIndex()
            for _ in 0..<conversations {
                guard let conversation = next(), let firstSeq = next(), let count = next(),
                      count > 0, count <= UInt64(raw.count - cursor) / 8 else { return nil }
                var positions: [UInt64] = []
                positions.reserveCapacity(Int(count))
                for _ in 0..<count {
                    guard let position = next() else { return nil }
                    positions.append(position)
                }
                index.restore(conversation: conversation, entry: SegmentIndex.Entry(firstSeq: firstSeq, positions: positions))
            }
            return SegmentCheckpoint(index: index, segment: segment, offset: Int(offset))
        }
    }
}
