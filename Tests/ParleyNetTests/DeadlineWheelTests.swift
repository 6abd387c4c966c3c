import Testing
@testable import ParleyNet

/// The loop's wheel of connection deadlines, alone: filing, moving, taking out, and never
/// handing a connection over before its deadline.
@Suite struct DeadlineWheelTests {
    static let tick = DeadlineWheel.tickNanoseconds
    static let start: UInt64 = 1_000 * tick

    /// Connections that are never registered (no socket): the wheel only keeps references.
    static func connections(_ count: Int, on loop: EventLoop) -> [TCPConnection] {
        (0..<count).map { _ in TCPConnection(fd: -1, loop: loop, state: .open, options: TCPConnectionOptions()) }
    }

    @Test func nothingIsDueBeforeItsDeadline() throws {
        let loop = try EventLoop(index: 0)
        var wheel = DeadlineWheel(now: Self.start)
        let early = Self.connections(1, on: loop)[0]
        let late = Self.connections(1, on: loop)[0]
        // Between two ticks: its bucket is the tick after, so it comes up to a tick late, never early.
        wheel.file(early, at: Self.start + 3 * Self.tick + 1)
        wheel.file(late, at: Self.start + 10 * Self.tick)
        #expect(wheel.count == 2)
        #expect(wheel.nextWake() == Self.start + 4 * Self.tick)
        var due: [TCPConnection] = []
        wheel.takeDue(now: Self.start + 3 * Self.tick, into: &due)
        #expect(due.isEmpty)
        wheel.takeDue(now: Self.start + 4 * Self.tick, into: &due)
        #expect(due.count == 1 && due[0] === early)
        #expect(!early.wheelSlot.isFiled)
        #expect(wheel.nextWake() == Self.start + 10 * Self.tick)
        due.removeAll()
        wheel.takeDue(now: Self.start + 10 * Self.tick, into: &due)
        #expect(due.count == 1 && due[0] === late)
        #expect(wheel.count == 0 && wheel.nextWake() == nil)
    }

    @Test func removingKeepsTheOthersFiled() throws {
        let loop = try EventLoop(index: 0)
        var wheel = DeadlineWheel(now: Self.start)
        let all = Self.connections(5, on: loop)
        for connection in all { wheel.file(connection, at: Self.start + 2 * Self.tick) }
        wheel.remove(all[1])
        wheel.remove(all[1])  // a second time: no-op
        // Filed again later: it moves out of the shared bucket.
        wheel.file(all[3], at: Self.start + 50 * Self.tick)
        #expect(wheel.count == 4)
        var due: [TCPConnection] = []
        wheel.takeDue(now: Self.start + 2 * Self.tick, into: &due)
        #expect(Set(due.map(ObjectIdentifier.init)) == Set([all[0], all[2], all[4]].map(ObjectIdentifier.init)))
        #expect(wheel.count == 1)
    }

    @Test func aDeadlineBeyondTheLapWaitsItsTurn() throws {
        let loop = try EventLoop(index: 0)
        var wheel = DeadlineWheel(now: Self.start)
        let far = Self.connections(1, on: loop)[0]
        let lap = UInt64(DeadlineWheel.bucketCount) * Self.tick
        let deadline = Self.start + lap + 5 * Self.tick
        wheel.file(far, at: deadline)
        var due: [TCPConnection] = []
        // Its bucket comes up after 5 ticks, a lap early: looked at, kept.
        wheel.takeDue(now: Self.start + 5 * Self.tick, into: &due)
        #expect(due.isEmpty && wheel.count == 1)
        wheel.takeDue(now: deadline - 1, into: &due)
        #expect(due.isEmpty)
        wheel.takeDue(now: deadline, into: &due)
        #expect(due.count == 1)
    }

    @Test func aDeadlineAlreadyPassedIsDueAtTheNextSweep() throws {
        let loop = try EventLoop(index: 0)
        var wheel = DeadlineWheel(now: Self.start)
        var due: [TCPConnection] = []
        wheel.takeDue(now: Self.start + 20 * Self.tick, into: &due)
        let late = Self.connections(1, on: loop)[0]
        wheel.file(late, at: Self.start)
        wheel.takeDue(now: Self.start + 21 * Self.tick, into: &due)
        #expect(due.count == 1 && due[0] === late)
    }
}
