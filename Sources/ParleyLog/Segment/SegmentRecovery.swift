import Glibc

/// What opening a `SegmentLog` found and repaired.
public struct SegmentRecovery: Sendable, Equatable {
    /// Segment files.
    public var segments = 0
    /// Records found intact (from the checkpoint and the scan).
    public var records = 0
    /// Bytes cut off the last segment's torn tail.
    public var truncatedBytes = 0
    /// Whether a checkpoint was loaded (and only the records after it scanned).
    public var usedCheckpoint = false

    /// Opens every segment of `directory`, checks and indexes its records, cuts a torn tail
    /// off the last one; creates segment 1 in an empty directory.
    static func recover(directory: String, options: MessageLogOptions) throws(LogError) -> (SegmentLog.Shelf, SegmentRecovery) {
        var report = SegmentRecovery()
        var shelf = SegmentLog.Shelf()
        let numbers = try segmentNumbers(in: directory)
        guard let lastNumber = numbers.last else {
            let first = try SegmentFile.create(number: 1, in: directory)
            shelf.segments[1] = first
            report.segments = 1
            return (shelf, report)
        }
        var files: [UInt64: SegmentFile] = [:]
        for number in numbers { files[number] = try SegmentFile.open(number: number, in: directory) }
        // A checkpoint counts only if the position it covers still exists.
        var start: (segment: UInt64, offset: Int)?
        if let checkpoint = SegmentCheckpoint.read(from: directory), let file = files[checkpoint.segment],
           file.size >= checkpoint.offset {
            shelf.index = checkpoint.index
            start = (checkpoint.segment, checkpoint.offset)
            report.usedCheckpoint = true
            report.records = checkpoint.index.entries.values.reduce(0) { $0 + $1.positions.count }
        }
        for number in numbers {
            guard let file = files[number] else { continue }
            if let start, number < start.segment { continue }
            let isLast = number == lastNumber
            let bytes = try file.read(count: file.size, at: 0)
            let headerIsValid = bytes.withUnsafeBytes { file.headerIsValid($0) }
            guard headerIsValid else {
                // Only a segment created just before a crash may have a torn header.
                guard isLast, bytes.count < SegmentFile.headerSize + RecordCodec.headerSize else {
                    throw .corrupt("\(file.path): bad header")
                }
                report.truncatedBytes += bytes.count
                try file.writeHeader()
                continue
            }
            var offset = start.map { $0.segment == number ? max($0.offset, SegmentFile.headerSize) : SegmentFile.headerSize }
                ?? SegmentFile.headerSize
            var damage: String?
            bytes.withUnsafeBytes { raw in
                while offset < raw.count {
                    guard case .record(let record, let size) = RecordCodec.decode(raw, at: offset, maxPayload: options.maxPayloadBytes) else {
                        break
                    }
                    guard shelf.index.add(conversation: record.conversation, seq: record.seq,
                                          position: SegmentIndex.position(segment: number, offset: offset),
                                          startsAnywhere: options.startsAnywhere) else {
                        damage = "\(file.path) at \(offset): conversation \(record.conversation) seq \(record.seq) does not continue it"
                        return
                    }
                    report.records += 1
                    offset += size
                }
            }
            if let damage { throw .corrupt(damage) }
            if offset < bytes.count {
                guard isLast else { throw .corrupt("\(file.path): damaged record at \(offset) of \(bytes.count) bytes") }
                report.truncatedBytes += bytes.count - offset
                try file.truncate(to: offset)
                try file.sync()
            }
            file.size = offset
        }
        shelf.segments = files
        report.segments = files.count
        return (shelf, report)
    }

    /// The numbers of the segment files in `directory`, ascending.
    private static func segmentNumbers(in directory: String) throws(LogError) -> [UInt64] {
        guard let handle = opendir(directory) else { throw .system(operation: "list \(directory)", errno: errno) }
        defer { closedir(handle) }
        var numbers: [UInt64] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let number = SegmentFile.number(ofName: name) { numbers.append(number) }
        }
        return numbers.sorted()
    }
}
