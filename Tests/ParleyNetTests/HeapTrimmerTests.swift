import Testing
@testable import ParleyNet

@Suite struct HeapTrimmerTests {
    /// Reports below the threshold start nothing; reaching it wakes the thread, which trims.
    @Test func reachingTheThresholdTrimsTheHeap() async throws {
        let trimmer = HeapTrimmer.shared
        let before = trimmer.trimCount
        trimmer.freed(HeapTrimmer.threshold / 2)
        trimmer.freed(HeapTrimmer.threshold / 2)
        var waited = 0
        while trimmer.trimCount == before && waited < 100 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(trimmer.trimCount > before)
    }
}
