import Testing
@testable import ParleyNet

@Suite struct StaticFileCacheTests {
    @Test func evictsToStayWithinCapacity() {
        let cache = StaticFileCache(capacity: 10, maxFileBytes: 6)
        cache.store(path: "/a", etag: "1", chunk: ByteChunk.of([UInt8](repeating: 0, count: 6)))
        cache.store(path: "/b", etag: "1", chunk: ByteChunk.of([UInt8](repeating: 0, count: 6)))
        #expect(cache.count == 1)
        #expect(cache.chunk(path: "/b", etag: "1") != nil)
        #expect(cache.chunk(path: "/b", etag: "2") == nil)
        cache.store(path: "/c", etag: "1", chunk: ByteChunk.of([UInt8](repeating: 0, count: 7)))
        #expect(cache.chunk(path: "/c", etag: "1") == nil)
    }
}
