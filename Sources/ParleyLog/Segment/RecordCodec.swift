/// How one record lies in a segment file, little-endian:
///
///     crc32c u32 | payload length u32 | conversation u64 | seq u64 | payload
///
/// The checksum covers everything after itself, so a record torn anywhere (a short write,
/// a sector never written, zeros at the tail) fails it; a record with seq 0 is never
/// written, so an all-zero tail cannot pass for one.
enum RecordCodec {
    /// Bytes before the payload.
    static let headerSize = 24

    /// What decoding at an offset found.
    enum Decoded: Equatable {
        /// A whole, intact record of `size` bytes.
        case record(LogRecord, size: Int)
        /// Not a whole record: the bytes end inside it, or it fails its checksum, or its
        /// length or seq is impossible. At the log's tail this is a torn write.
        case invalid
    }

    /// Appends `record`'s bytes to `buffer`.
    static func encode(_ record: LogRecord, into buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: [0, 0, 0, 0])
        append(UInt32(record.payload.count), to: &buffer)
        append(record.conversation, to: &buffer)
        append(record.seq, to: &buffer)
        buffer.append(contentsOf: record.payload)
        let crc = buffer.withUnsafeBytes { CRC32C.update(0, UnsafeRawBufferPointer(rebasing: $0[(start + 4)...])) }
        for index in 0..<4 { buffer[start + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    }

    /// The record at `offset` of `bytes`, if whole and intact (payloads above
    /// `maxPayload` are impossible).
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int, maxPayload: Int) -> Decoded {
        guard offset >= 0, bytes.count - offset >= headerSize else { return .invalid }
        let crc = UInt32(read(bytes, offset, 4))
        let length = Int(read(bytes, offset + 4, 4))
        guard length <= maxPayload, bytes.count - offset - headerSize >= length else { return .invalid }
        let conversation = read(bytes, offset + 8, 8)
        let seq = read(bytes, offset + 16, 8)
        guard seq > 0 else { return .invalid }
        let end = offset + headerSize + length
        guard CRC32C.update(0, UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<end])) == crc else { return .invalid }
        let payload = Array(bytes[(offset + headerSize)..<end])
        return .record(LogRecord(conversation: conversation, seq: seq, payload: payload), size: headerSize + length)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
        for index in 0..<(T.bitWidth / 8) { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// A little-endian unsigned number of `count` bytes at `offset`.
    static func read(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
