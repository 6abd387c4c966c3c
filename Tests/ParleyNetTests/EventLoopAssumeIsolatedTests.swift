import Testing
@testable import ParleyNet

@Suite struct EventLoopAssumeIsolatedTests {
    /// An actor whose executor is the loop, as a connection's session is.
    actor Counter {
        nonisolated let loop: EventLoop
        var count = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
        init(loop: EventLoop) { self.loop = loop }
        func increment() -> Int {
            count += 1
            return count
        }
    }

    /// Code the loop runs enters the actor synchronously: the body sees and changes its state,
    /// and what it returns comes back; the actor's own async view agrees afterwards.
    @Test func codeOnTheLoopEntersAnActorPinnedToIt() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        let counter = Counter(loop: loop)
        let returned = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            loop.execute {
                let first = loop.assumeIsolated(counter) { $0.increment() }
                let second = loop.assumeIsolated(counter) { $0.increment() }
                continuation.resume(returning: [first, second])
            }
        }
        #expect(returned == [1, 2])
        #expect(await counter.count == 2)
    }
}
