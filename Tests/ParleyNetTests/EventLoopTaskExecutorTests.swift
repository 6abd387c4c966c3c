import Foundation
import Testing
@testable import ParleyNet

@Suite struct EventLoopTaskExecutorTests {
    /// A task that prefers the loop starts on the loop's thread and comes back to it after
    /// being resumed from another thread.
    @Test func aTaskPreferringTheLoopRunsOnItBeforeAndAfterAnAwait() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        let observed = await Task(executorPreference: loop) { () async -> [Bool] in
            let before = loop.inEventLoop
            // Resumed from a thread of its own, as the store's writer thread resumes a write.
            let resumerWasOnLoop = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Thread.detachNewThread { continuation.resume(returning: loop.inEventLoop) }
            }
            return [before, resumerWasOnLoop, loop.inEventLoop]
        }.value
        #expect(observed == [true, false, true])
    }

    /// Without the preference the same task runs off the loop: the check above can fail.
    @Test func aPlainTaskDoesNotRunOnTheLoop() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        #expect(await Task { loop.inEventLoop }.value == false)
    }
}
