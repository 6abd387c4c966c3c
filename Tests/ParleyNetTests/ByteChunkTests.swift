import Testing
@testable import ParleyNet

@Suite struct ByteChunkTests {
    @Test func copiesBytesAndKeepsCount() {
        let chunk = ByteChunk([1, 2, 3])
        #expect(chunk.count == 3)
        #expect(chunk.bytes == [1, 2, 3])
    }

    @Test func fillMayWriteFewerBytesThanCapacity() {
        let chunk = ByteChunk(capacity: 8) { buffer in
            buffer[0] = 9
            return 1
        }
        #expect(chunk.bytes == [9])
    }

    @Test func stringIsStoredAsUTF8() {
        #expect(ByteChunk(string: "é").bytes == [0xC3, 0xA9])
    }
}
