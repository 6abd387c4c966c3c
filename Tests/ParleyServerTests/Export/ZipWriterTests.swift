import Foundation
import Testing
@testable import ParleyServer

@Suite struct ZipWriterTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// The archive a reader sees: entries found through the central directory at the end,
    /// each local header pointing at the stored bytes.
    @Test func storedEntriesAreFoundThroughTheCentralDirectory() throws {
        var zip = ZipWriter(date: Date(timeIntervalSince1970: 1_764_547_200))
        let files: [(String, [UInt8])] = [("account.json", Array("{\"id\":\"1\"}".utf8)), ("media/a b.png", [0, 1, 2, 255]),
                                          ("empty", []), ("名前.json", Array("[]".utf8))]
        for (name, bytes) in files { try zip.add(name, bytes) }
        zip.finish()
        let bytes = zip.bytes
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let end = bytes.count - 22
        #expect(u32(end) == 0x0605_4B50)
        #expect(u16(end + 10) == files.count)
        var at = u32(end + 16)
        for (name, content) in files {
            #expect(u32(at) == 0x0201_4B50)
            #expect(u32(at + 16) == Int(CRC32.checksum(content)))
            #expect(u32(at + 20) == content.count && u32(at + 24) == content.count)
            let nameLength = u16(at + 28)
            #expect(String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self) == name)
            let local = u32(at + 42)
            #expect(u32(local) == 0x0403_4B50)
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            #expect(Array(bytes[start..<(start + content.count)]) == content)
            at += 46 + nameLength
        }
        #expect(at == end)
    }
}
