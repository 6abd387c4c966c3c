import CParleySystem
import Testing
@testable import ParleyNet

@Suite struct PendingWritesTests {
    /// Gathers what `writes` would hand to `writev` and reads the bytes back.
    private func gathered(_ writes: PendingWrites, limit: Int = 64) -> [[UInt8]] {
        let iovecs = UnsafeMutablePointer<iovec>.allocate(capacity: limit)
        defer { iovecs.deallocate() }
        let count = writes.gather(into: iovecs, limit: limit)
        return (0..<count).map { index in
            let vector = iovecs[index]
            return Array(UnsafeRawBufferPointer(start: vector.iov_base, count: vector.iov_len))
        }
    }

    @Test func loneWriteStaysInlineWithoutARing() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        writes.append(ByteChunk.of([1, 2, 3]), spares: &spares)
        #expect(writes.chunkCount == 1)
        #expect(writes.ringCapacity == 0)
        #expect(writes.bytes == 3)
        #expect(gathered(writes) == [[1, 2, 3]])
        writes.advance(by: 3, spares: &spares)
        #expect(writes.isEmpty)
        #expect(writes.ringCapacity == 0)
    }

    @Test func partialWritesOfTheLoneWriteResumeWhereTheyStopped() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        writes.append(ByteChunk.of([1, 2, 3, 4, 5]), spares: &spares)
        writes.advance(by: 2, spares: &spares)
        #expect(gathered(writes) == [[3, 4, 5]])
        #expect(writes.bytes == 3)
        writes.append(ByteChunk.of([6]), spares: &spares)
        // The partly written lone chunk moves into the ring with its offset.
        #expect(writes.ringCapacity > 0)
        #expect(gathered(writes) == [[3, 4, 5], [6]])
        writes.advance(by: 4, spares: &spares)
        #expect(writes.isEmpty)
    }

    @Test func partialWriteAcrossChunksKeepsOrderAndOffsets() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        writes.append(ByteChunk.of([1, 2]), spares: &spares)
        writes.append(ByteChunk.of([3, 4, 5]), spares: &spares)
        writes.append(ByteChunk.of([6, 7]), spares: &spares)
        writes.advance(by: 3, spares: &spares)
        #expect(gathered(writes) == [[4, 5], [6, 7]])
        #expect(writes.bytes == 4)
        #expect(writes.chunkCount == 2)
        writes.advance(by: 1, spares: &spares)
        #expect(gathered(writes) == [[5], [6, 7]])
    }

    @Test func ringWrapsAroundAndGrowsInOrder() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        var expected: [[UInt8]] = []
        var next: UInt8 = 0
        func add() {
            writes.append(ByteChunk.of([next]), spares: &spares)
            expected.append([next])
            next &+= 1
        }
        // Fill part of the ring, write some, and keep adding so the tail wraps past the end.
        for _ in 0..<6 { add() }
        let capacity = writes.ringCapacity
        writes.advance(by: 5, spares: &spares)
        expected.removeFirst(5)
        for _ in 0..<(capacity - 2) { add() }
        #expect(writes.ringCapacity == capacity, "the ring wrapped instead of growing")
        #expect(gathered(writes) == expected)
        // One more than fits: it grows and keeps the order across the wrap.
        for _ in 0..<2 { add() }
        #expect(writes.ringCapacity > capacity)
        #expect(gathered(writes) == expected)
        #expect(writes.bytes == expected.count)
    }

    @Test func gatherStopsAtTheLimit() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        for value in 0..<10 { writes.append(ByteChunk.of([UInt8(value)]), spares: &spares) }
        #expect(gathered(writes, limit: 4) == [[0], [1], [2], [3]])
    }

    @Test func writtenChunkIsReleasedBeforeTheQueueDrains() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        weak var first: ByteChunk?
        weak var second: ByteChunk?
        do {
            let a = ByteChunk.of([1, 2, 3])
            let b = ByteChunk.of([4, 5, 6])
            first = a
            second = b
            writes.append(a, spares: &spares)
            writes.append(b, spares: &spares)
            writes.append(ByteChunk.of([7]), spares: &spares)
        }
        #expect(first != nil)
        writes.advance(by: 4, spares: &spares)  // all of the first chunk and one byte of the second
        #expect(first == nil, "a written chunk stayed alive while the queue had more")
        #expect(second != nil)
        #expect(!writes.isEmpty)
        writes.advance(by: 3, spares: &spares)
        #expect(second == nil)
        #expect(writes.isEmpty)
        #expect(writes.ringCapacity == 0, "a drained queue keeps its ring")
    }

    @Test func aDrainedRingIsKeptAsASpareAndReused() {
        var spares = PendingWrites.SpareRings(limit: 2)
        var first = PendingWrites()
        first.append(ByteChunk.of([1]), spares: &spares)
        first.append(ByteChunk.of([2]), spares: &spares)
        #expect(first.ringCapacity == PendingWrites.smallestRing)
        #expect(spares.count == 0)
        first.advance(by: 2, spares: &spares)
        #expect(first.ringCapacity == 0, "a drained queue keeps its ring")
        #expect(spares.count == 1)
        // The next queue of two takes the spare and keeps order in it.
        var second = PendingWrites()
        second.append(ByteChunk.of([3]), spares: &spares)
        second.append(ByteChunk.of([4, 5]), spares: &spares)
        #expect(spares.count == 0)
        #expect(gathered(second) == [[3], [4, 5]])
        second.advance(by: 3, spares: &spares)
        #expect(spares.count == 1)
    }

    @Test func sparesStopAtTheirLimitAndKeepOnlyTheSmallestRings() {
        var spares = PendingWrites.SpareRings(limit: 1)
        var queues = [PendingWrites(), PendingWrites()]
        for index in queues.indices {
            queues[index].append(ByteChunk.of([1]), spares: &spares)
            queues[index].append(ByteChunk.of([2]), spares: &spares)
        }
        for index in queues.indices { queues[index].advance(by: 2, spares: &spares) }
        #expect(spares.count == 1, "more spares kept than the limit")
        // A ring that grew past the smallest capacity is freed, not kept.
        var grown = PendingWrites()
        for value in 0...PendingWrites.smallestRing { grown.append(ByteChunk.of([UInt8(value)]), spares: &spares) }
        #expect(grown.ringCapacity > PendingWrites.smallestRing)
        #expect(spares.count == 0)
        grown.advance(by: PendingWrites.smallestRing + 1, spares: &spares)
        #expect(spares.count == 0, "a grown ring was kept as a spare")
        // A queue dropped with chunks in its ring does not hand those slots on.
        var dropped = PendingWrites()
        dropped.append(ByteChunk.of([1]), spares: &spares)
        dropped.append(ByteChunk.of([2]), spares: &spares)
        dropped.removeAll()
        #expect(spares.count == 0)
    }

    @Test func removeAllDropsEverything() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        weak var chunk: ByteChunk?
        do {
            let a = ByteChunk.of([1])
            chunk = a
            writes.append(a, spares: &spares)
            writes.append(ByteChunk.of([2]), spares: &spares)
        }
        writes.removeAll()
        #expect(writes.isEmpty)
        #expect(writes.bytes == 0)
        #expect(chunk == nil)
    }

    @Test func emptyChunksAreNotQueued() {
        var writes = PendingWrites()
        var spares = PendingWrites.SpareRings(limit: 0)
        writes.append(ByteChunk.of([]), spares: &spares)
        #expect(writes.isEmpty)
    }
}
