import ParleySync
import Testing

/// The thread's scratch bytes: empty at each use, never shared with a nested use, and kept
/// between uses only up to their retained capacity. Each test is synchronous, so it runs on
/// one thread from start to end and sees that thread's buffer only.
@Suite struct ScratchBytesTests {
    @Test func eachUseStartsEmpty() {
        ScratchBytes.with { $0.append(contentsOf: [1, 2, 3]) }
        ScratchBytes.with { #expect($0.isEmpty) }
    }

    @Test func aNestedUseGetsABufferOfItsOwn() {
        ScratchBytes.with { outer in
            outer.append(1)
            ScratchBytes.with { inner in
                #expect(inner.isEmpty)
                inner.append(2)
            }
            #expect(outer == [1])
        }
    }

    @Test func theBufferIsKeptUpToItsRetainedCapacity() {
        ScratchBytes.with { $0.reserveCapacity(1024) }
        #expect(ScratchBytes.with { $0.capacity } >= 1024, "kept for the next use")
        ScratchBytes.with { $0.append(contentsOf: repeatElement(0, count: ScratchBytes.retainedCapacity + 1)) }
        #expect(ScratchBytes.with { $0.capacity } == 0, "too large to keep: freed after its use")
    }
}
