import Foundation

/// Writes a ZIP archive (PKWARE APPNOTE 6.3) of stored, uncompressed entries: what an account
/// export needs (JSON and images, which are compressed already) with no library. No ZIP64, so
/// the archive and each entry stay under 4 GiB, and at most 65,535 entries; `add` refuses more.
struct ZipWriter {
    enum Failure: Error, Equatable {
        case tooLarge
        case tooManyEntries
    }

    private struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt32
        var offset: UInt32
    }

    private(set) var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// The archive's time stamp for every entry, in MS-DOS form (2-second steps, local time
    /// of no zone: UTC here).
    private let dosTime: UInt16
    private let dosDate: UInt16

    init(date: Date) {
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        dosTime = UInt16(((parts.hour ?? 0) << 11) | ((parts.minute ?? 0) << 5) | ((parts.second ?? 0) / 2))
        dosDate = UInt16(((max((parts.year ?? 1980) - 1980, 0)) << 9) | ((parts.month ?? 1) << 5) | (parts.day ?? 1))
    }

    /// Appends a file; `name` uses `/` between folders.
    mutating func add(_ name: String, _ content: [UInt8]) throws(Failure) {
        guard entries.count < 0xFFFF else { throw .tooManyEntries }
        let nameBytes = Array(name.utf8)
        guard content.count < Int(UInt32.max) - 1024, bytes.count + content.count + nameBytes.count + 1024 < Int(UInt32.max) else {
            throw .tooLarge
        }
        let entry = Entry(name: nameBytes, crc: CRC32.checksum(content), size: UInt32(content.count), offset: UInt32(bytes.count))
        append32(0x0403_4B50)
        append16(20)        // version needed: 2.0
        append16(0x0800)    // flags: names are UTF-8
        append16(0)         // stored
        append16(dosTime)
        append16(dosDate)
        append32(entry.crc)
        append32(entry.size)
        append32(entry.size)
        append16(UInt16(nameBytes.count))
        append16(0)
        bytes += nameBytes
        bytes += content
        entries.append(entry)
    }

    /// Appends the central directory; the archive is `bytes` afterwards.
    mutating func finish() {
        let start = UInt32(bytes.count)
        for entry in entries {
            append32(0x0201_4B50)
            append16(20)    // made by: 2.0
            append16(20)
            append16(0x0800)
            append16(0)
            append16(dosTime)
            append16(dosDate)
            append32(entry.crc)
            append32(entry.size)
            append32(entry.size)
            append16(UInt16(entry.name.count))
            append16(0)     // extra
            append16(0)     // comment
            append16(0)     // disk
            append16(0)     // internal attributes
            append32(0)     // external attributes
            append32(entry.offset)
            bytes += entry.name
        }
        let size = UInt32(bytes.count) - start
        append32(0x0605_4B50)
        append16(0)
        append16(0)
        append16(UInt16(entries.count))
        append16(UInt16(entries.count))
        append32(size)
        append32(start)
        append16(0)
    }

    private mutating func append16(_ value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    private mutating func append32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}

/// CRC-32 as ZIP uses it (IEEE 802.3, reflected, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
