import Glibc
import ParleyNet

/// Client WebSockets spread evenly over an event-loop group, one `LoopClients` per loop.
final class ClientFleet: Sendable {
    /// The client loops.
    let group: EventLoopGroup
    /// One per loop, in loop order.
    let members: [LoopClients]

    /// Starts `loops` client event loops.
    init(loops: Int) throws(BenchError) {
        do {
            group = try EventLoopGroup(loopCount: loops, name: "bench-client")
        } catch {
            throw .system("cannot start event loops: \(error)")
        }
        members = group.loops.map { LoopClients(loop: $0) }
    }

    /// Starts opening `count` connections, shared out over the loops; returns at once.
    /// `sourceOffset` staggers where each process starts in `sources`.
    func connect(count: Int, target: SocketAddress, path: String, sources: [SocketAddress],
                 sourceOffset: Int = 0, windowPerLoop: Int) {
        for (index, member) in members.enumerated() {
            let share = count / members.count + (index < count % members.count ? 1 : 0)
            let plan = ConnectPlan(target: target, path: path, count: share, sources: sources,
                                   sourceOffset: sourceOffset + index, window: windowPerLoop)
            member.connect(plan)
        }
    }

    /// Connections opened, failed, closed after opening, and open now, over all loops.
    var opened: Int { members.reduce(0) { $0 + $1.opened.load(ordering: .relaxed) } }
    var failed: Int { members.reduce(0) { $0 + $1.failed.load(ordering: .relaxed) } }
    var closed: Int { members.reduce(0) { $0 + $1.closed.load(ordering: .relaxed) } }
    var openNow: Int { members.reduce(0) { $0 + $1.openNow } }
    var settled: Bool { members.allSatisfy(\.settled) }

    /// Every error reason with its count, over all loops.
    var errors: [String: Int] {
        members.reduce(into: [:]) { table, member in
            for (reason, count) in member.errors.snapshot { table[reason, default: 0] += count }
        }
    }

    /// Waits until every planned connection opened or failed, or `timeout` passed; calls
    /// `progress` about every `interval`. Returns whether everything settled.
    func waitUntilSettled(timeout: Duration, interval: Duration = .seconds(1), progress: () -> Void = {}) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var nextReport = clock.now + interval
        while !settled {
            if clock.now >= deadline { return false }
            usleep(20_000)
            if clock.now >= nextReport {
                progress()
                nextReport = clock.now + interval
            }
        }
        return true
    }

    /// Closes every socket politely and waits up to `timeout` for the closes to finish.
    func closeAll(timeout: Duration = .seconds(3)) {
        for member in members { member.loop.execute { member.closeAll() } }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while openNow > 0 && clock.now < deadline { usleep(20_000) }
    }

    /// Stops the loops.
    func shutdown() {
        group.shutdown()
    }
}
