import Testing
@testable import ParleyNet

@Suite struct ByteChunkTests {
    @Test func copiesBytesAndKeepsCount() {
        let chunk = ByteChunk.of([1, 2, 3])
        #expect(chunk.count == 3)
        #expect(chunk.bytes == [1, 2, 3])
    }

    @Test func fillMayWriteFewerBytesThanCapacity() {
        let chunk = ByteChunk.filled(capacity: 8) { buffer in
            buffer[0] = 9
            return 1
        }
        #expect(chunk.bytes == [9])
    }

    @Test func stringIsStoredAsUTF8() {
        #expect(ByteChunk.of(string: "é").bytes == [0xC3, 0xA9])
    }
}

@Suite struct ByteChunkStorageTests {
    struct Refused: Error {}

    @Test func anEmptyChunkHasNoBytes() {
        let chunk = ByteChunk.of([])
        #expect(chunk.count == 0)
        #expect(chunk.bytes.isEmpty)
    }

    /// The bytes stay where they are for the chunk's life: `writev` is handed the address.
    @Test func theBaseAddressIsWhereTheBytesAre() {
        let chunk = ByteChunk.of([4, 5, 6])
        let address = chunk.baseAddress
        #expect(address != nil)
        #expect(chunk.withUnsafeBytes { $0.baseAddress } == address)
        #expect(chunk.baseAddress == address)
        #expect(address.map { $0.load(fromByteOffset: 2, as: UInt8.self) } == 6)
    }

    @Test func aFillThatThrowsMakesNoChunk() {
        #expect(throws: Refused.self) {
            _ = try ByteChunk.filled(capacity: 4) { _ in throw Refused() }
        }
    }
}
