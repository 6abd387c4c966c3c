import Testing
@testable import ParleyNet

@Suite struct HeapArenasTests {
    /// 0 leaves glibc's default alone; a count is handed to glibc, which takes it.
    @Test func aCountIsTakenAndZeroChangesNothing() {
        let before = HeapArenas.limit
        #expect(HeapArenas.limit(to: 0))
        #expect(HeapArenas.limit == before)
        // 1, the server's default, so that a server test running beside this one agrees.
        #expect(HeapArenas.limit(to: 1))
        #expect(HeapArenas.limit == 1)
    }
}
