/// An event loop can run Swift tasks and actors.
///
/// As a `TaskExecutor`: a task started with the loop as its executor preference
/// (`Task(executorPreference: loop)`) runs its synchronous stretches, nonisolated async
/// functions included, on the loop's thread, and resumes there after every `await`. A request
/// that is mostly hand-offs (decode, queue a write, encode the answer) then costs no wake-ups
/// of the global pool's threads: whoever resumes it queues the job on the loop, as `execute`
/// does for any task.
///
/// As a `SerialExecutor`: an actor whose `unownedExecutor` is the loop's is isolated to the
/// loop's thread, so state a connection owns lives in an actor the compiler checks, and code
/// the loop calls synchronously (a socket's callbacks) enters the actor with
/// `assumeIsolated`, which `checkIsolated` confirms.
///
/// The loop runs every job in both roles at once (serial executor and task executor the loop):
/// a task isolated to an actor pinned here that also prefers the loop goes from the actor to
/// `nonisolated(nonsending)` code and back without a hop. The runtime compares both executors
/// when a task moves, so a task without that preference is queued again at every `await`.
///
/// Only for work that never blocks: everything between `await`s runs on the loop.
extension EventLoop: TaskExecutor, SerialExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless called on the loop's thread: what `assumeIsolated` relies on.
    public func checkIsolated() {
        precondition(inEventLoop, "not on the event loop's thread")
    }

    /// Whether the caller runs on the loop's thread: lets `Task.immediate`, started from a
    /// socket's callback (not a job, so not an executor the runtime knows it is on), begin
    /// on the loop at once instead of queueing its first job there.
    public func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }
}

extension EventLoop {
    /// Runs `body` isolated to `actor`, whose executor must be this loop, from code running on
    /// the loop's thread (a socket's callback, work the loop runs): `Actor.assumeIsolated`
    /// with the loop's own check, a comparison of thread ids. The runtime's check asks which
    /// executor the current task runs on, then whether it is the main one, then the loop's
    /// `checkIsolated`, and retains and releases on the way: about 200 instructions, four
    /// times a 1:1 message (docs/benchmarks.md, (aa)). Traps off the loop's thread, as
    /// `assumeIsolated` does.
    public func assumeIsolated<A: Actor, T>(_ actor: A, _ body: (isolated A) -> T) -> T {
        precondition(inEventLoop, "not on the event loop's thread")
        // What `Actor.assumeIsolated` does once its check passed: on the actor's executor,
        // an isolated function is called as a plain one.
        return withoutActuallyEscaping(body) { body in
            unsafeBitCast(body, to: ((A) -> T).self)(actor)
        }
    }
}
