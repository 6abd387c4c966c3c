import CParleySystem
import Synchronization
import ParleySync

/// Something an event loop watches: a socket, an eventfd, a signalfd.
protocol Selectable: AnyObject {
    /// Called on the loop with the events that fired.
    func handleEvents(_ events: IOEvents)
}

/// Something that wants a call at the end of the current loop turn (to flush writes once).
protocol EndOfTurnWork: AnyObject {
    func runEndOfTurn()
}

/// One thread, one epoll instance: runs I/O handlers, timers and submitted tasks.
///
/// Everything registered with a loop is touched only on that loop's thread; other threads
/// reach it through `execute(_:)`, which queues the task and wakes the loop through an eventfd.
public final class EventLoop: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: every `var` below is read and written only on the
    // loop's own thread, except `incoming` (behind a PThreadMutex) and `wakeArmed` (atomic).
    // They are marked `@exclusivity(unchecked)`: the runtime's check of overlapping access
    // only ever sees one thread's accesses, these are touched by the loop's code alone (which
    // takes its queues by swapping them out, never while iterating them), and the checks cost
    // about sixty calls a 1:1 message through the loops (docs/benchmarks.md, (aa)). `thread`
    // is written once by `start` before the loop runs and read after.

    /// The loop's position in its group.
    public let index: Int
    let epollFD: Int32
    private let wakeFD: Int32
    @exclusivity(unchecked) private var thread: pthread_t?
    private let incoming = PThreadMutex<[LoopWork]>([])
    private let wakeArmed = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let threadStarted = Atomic<Bool>(false)
    @exclusivity(unchecked) private var localTasks: [LoopWork] = []
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var timerSequence: UInt64 = 0
    /// The connections' deadlines (idle, stall, linger, ping), swept by tick: no timer per
    /// connection. See DeadlineWheel.swift.
    @exclusivity(unchecked) var deadlines = DeadlineWheel(now: MonotonicClock.now())
    /// Reused for the connections a sweep finds due, so a sweep allocates nothing.
    @exclusivity(unchecked) private var dueConnections: [TCPConnection] = []
    @exclusivity(unchecked) private var selectables: [Selectable?] = []
    @exclusivity(unchecked) private var generations: [UInt32] = []
    @exclusivity(unchecked) private var endOfTurn: [EndOfTurnWork] = []
    /// Empty buffers the queues above trade places with when their work is taken, so that a
    /// turn allocates nothing (a copy and `removeAll(keepingCapacity:)` made a new buffer each
    /// time, two or three a message). Loop thread only.
    @exclusivity(unchecked) private var spareWork: [LoopWork] = []
    @exclusivity(unchecked) private var spareEndOfTurn: [EndOfTurnWork] = []
    /// Work whose flush waits for the end of the current delivery window, each knowing its
    /// place (`deferredFlushSlot`); see EventLoop+DeferredFlush.swift. Loop thread only.
    @exclusivity(unchecked) var deferredFlushes: [DeferredFlushWork] = []
    /// The one timer that ends the current delivery window; nil while none is open.
    @exclusivity(unchecked) var deferredFlushTimer: ScheduledTimer?
    /// The time at the start of the current turn; cheap for handlers that stamp activity.
    @exclusivity(unchecked) public private(set) var now: UInt64 = MonotonicClock.now()
    /// Scratch space for reads on this loop, shared by every connection on it, so that an idle
    /// connection holds no read buffer of its own.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Scratch `iovec`s for gathering writes into one `writev` call.
    let iovecScratch: UnsafeMutablePointer<iovec>
    static let iovecScratchCount = 64
    /// Write-queue rings its connections gave back, for the next that queues two chunks or
    /// more (see PendingWrites.swift). Loop thread only.
    @exclusivity(unchecked) var spareWriteRings: PendingWrites.SpareRings
    /// How many spare write rings a loop keeps by default: enough for a group's fan-out to
    /// a few hundred connections on one loop, ≈ 180 bytes each (≈ 23 KiB a loop at most).
    public static let defaultSpareWriteRings = 128
    /// Counters of this loop, summed across loops by `EventLoopGroup.metrics`.
    public let metrics = NetMetrics()

    private static let wakeToken: UInt64 = .max
    private static let maxEventsPerWait: Int32 = 256

    init(index: Int, readBufferSize: Int = 64 * 1024,
         spareWriteRings: Int = EventLoop.defaultSpareWriteRings) throws(SystemError) {
        self.index = index
        self.spareWriteRings = PendingWrites.SpareRings(limit: spareWriteRings)
        epollFD = try blockingSystemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wakeFD = try blockingSystemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        } catch {
            close(epollFD)
            throw error
        }
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
        iovecScratch = .allocate(capacity: Self.iovecScratchCount)
        _ = parley_epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, EPOLLIN.rawValue, Self.wakeToken)
    }

    deinit {
        close(wakeFD)
        close(epollFD)
        readBuffer.deallocate()
        iovecScratch.deallocate()
    }

    /// True when called on this loop's thread.
    public var inEventLoop: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    // MARK: Tasks and timers

    /// Runs `task` on the loop: at the end of the current turn if called on the loop,
    /// otherwise as soon as the loop wakes.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        submit(.closure(task))
    }

    /// Queues `work`: for the end of the current turn if called on the loop, otherwise for
    /// when the loop wakes (waking it if it sleeps).
    func submit(_ work: LoopWork) {
        if inEventLoop {
            localTasks.append(work)
            return
        }
        incoming.withLock { $0.append(work) }
        if !wakeArmed.exchange(true, ordering: .acquiringAndReleasing) {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs `task` on the loop after `delay`. Must be called on the loop.
    @discardableResult
    public func schedule(after delay: Duration, _ task: @escaping () -> Void) -> ScheduledTimer {
        precondition(inEventLoop || thread == nil, "EventLoop.schedule must be called on the loop")
        timerSequence &+= 1
        let timer = ScheduledTimer(loop: self, deadline: MonotonicClock.now() &+ delay.nanoseconds,
                                   sequence: timerSequence, task: task)
        timers.insert(timer)
        return timer
    }

    /// Timers on the loop's heap, cancelled ones still waiting for their time included (what
    /// they hold stays allocated until then); on the loop.
    var heldTimerCount: Int { timers.count }

    /// Asks for `work.runEndOfTurn()` once the current turn's events and tasks are done.
    func requestEndOfTurn(_ work: EndOfTurnWork) {
        endOfTurn.append(work)
    }

    // MARK: Registration

    func register(_ selectable: Selectable, fd: Int32, events: IOEvents) throws(SystemError) {
        let slot = Int(fd)
        if slot >= selectables.count {
            let newCount = max(slot + 1, selectables.count * 2, 64)
            selectables.append(contentsOf: repeatElement(nil, count: newCount - selectables.count))
            generations.append(contentsOf: repeatElement(0, count: newCount - generations.count))
        }
        generations[slot] &+= 1
        selectables[slot] = selectable
        try blockingSystemCall("epoll_ctl(ADD)") {
            parley_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events.rawValue, token(fd))
        }
    }

    func modify(fd: Int32, events: IOEvents) throws(SystemError) {
        try blockingSystemCall("epoll_ctl(MOD)") {
            parley_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, events.rawValue, token(fd))
        }
    }

    /// Forgets `fd`; call before closing it.
    func unregister(fd: Int32) {
        _ = parley_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
        let slot = Int(fd)
        if slot < selectables.count {
            selectables[slot] = nil
            generations[slot] &+= 1
        }
    }

    /// The epoll token carries the fd's generation, so an event for a closed fd whose number
    /// was reused within the same batch is recognised as stale and dropped.
    private func token(_ fd: Int32) -> UInt64 {
        UInt64(generations[Int(fd)]) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    /// The open connections on this loop that `server` accepted.
    func connections(of server: TCPServer) -> [TCPConnection] {
        selectables.compactMap { ($0 as? TCPConnection).flatMap { $0.server === server ? $0 : nil } }
    }

    // MARK: Running

    /// Starts the loop's thread.
    func start(name: String) {
        let box = Unmanaged.passRetained(ThreadStart(loop: self, name: name))
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
            start.name.withCString { parley_set_thread_name($0) }
            start.loop.run()
            return nil
        }, box.toOpaque())
        precondition(rc == 0, "pthread_create failed: \(rc)")
        thread = handle
        threadStarted.store(true, ordering: .releasing)
    }

    /// Asks the loop to finish its current turn and stop.
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        execute {}
    }

    /// Waits for the loop's thread to end.
    func join() {
        guard threadStarted.load(ordering: .acquiring), let thread else { return }
        pthread_join(thread, nil)
    }

    private func run() {
        // The thread may start running before `start` stored the handle; wait for it so that
        // `inEventLoop` is right from the first task on.
        while !threadStarted.load(ordering: .acquiring) { sched_yield() }
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.maxEventsPerWait))
        defer { events.deallocate() }
        while !stopRequested.load(ordering: .acquiring) {
            let count = epoll_wait(epollFD, events, Self.maxEventsPerWait, waitTimeout())
            now = MonotonicClock.now()
            if count > 0 {
                for i in 0..<Int(count) {
                    dispatch(parley_epoll_event_data(events + i), parley_epoll_event_events(events + i))
                }
            }
            for timer in timers.popExpired(now: now) { timer.fire() }
            sweepDeadlines()
            runTasks()
            runEndOfTurn()
        }
        // Last chance for tasks queued during shutdown (e.g. close frames) to run and flush;
        // writes still waiting for a delivery window go out with them.
        runTasks()
        flushDeferredNow()
        runEndOfTurn()
    }

    private func dispatch(_ token: UInt64, _ bits: UInt32) {
        if token == Self.wakeToken {
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
            return
        }
        let fd = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: token)))
        guard fd < selectables.count, generations[fd] == UInt32(token >> 32),
              let selectable = selectables[fd] else { return }
        selectable.handleEvents(IOEvents(rawValue: bits))
    }

    /// Asks every connection whose filed deadline has passed to act on it.
    private func sweepDeadlines() {
        deadlines.takeDue(now: now, into: &dueConnections)
        guard !dueConnections.isEmpty else { return }
        for connection in dueConnections { connection.deadlinePassed(now: now) }
        dueConnections.removeAll(keepingCapacity: true)
    }

    private func waitTimeout() -> Int32 {
        if !localTasks.isEmpty || !endOfTurn.isEmpty { return 0 }
        let timerDeadline = timers.nextDeadline()
        let wheelWake = deadlines.nextWake()
        guard let deadline = timerDeadline.map({ min($0, wheelWake ?? .max) }) ?? wheelWake else { return -1 }
        let current = MonotonicClock.now()
        if deadline <= current { return 0 }
        // Round up so a timer never fires early and the loop never spins on a 0 ms wait.
        let millis = (deadline - current + 999_999) / 1_000_000
        return Int32(min(millis, 60_000))
    }

    private func runTasks() {
        wakeArmed.store(false, ordering: .sequentiallyConsistent)
        var taken: [LoopWork] = []
        swap(&taken, &spareWork)
        incoming.withLock { swap(&$0, &taken) }
        for work in taken { run(work) }
        // Tasks added while running local tasks run in the next turn, after I/O gets a chance.
        if !localTasks.isEmpty {
            taken.removeAll(keepingCapacity: true)
            swap(&taken, &localTasks)
            for work in taken { run(work) }
        }
        taken.removeAll(keepingCapacity: true)
        swap(&taken, &spareWork)
    }

    private func run(_ work: LoopWork) {
        switch work {
        case .closure(let task):
            task()
        case .job(let job):
            // Both roles at once (see EventLoop+TaskExecutor.swift): an actor pinned to this loop
            // and a task preferring it both find themselves where they expect to be.
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }

    private func runEndOfTurn() {
        while !endOfTurn.isEmpty {
            var work: [EndOfTurnWork] = []
            swap(&work, &spareEndOfTurn)
            swap(&work, &endOfTurn)
            for item in work { item.runEndOfTurn() }
            work.removeAll(keepingCapacity: true)
            swap(&work, &spareEndOfTurn)
        }
    }
}

/// What a new loop thread needs, passed through `pthread_create`'s raw argument.
private final class ThreadStart {
    let loop: EventLoop
    let name: String
    init(loop: EventLoop, name: String) {
        self.loop = loop
        self.name = name
    }
}
