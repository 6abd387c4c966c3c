/// An event loop can run Swift tasks: a task started with the loop as its executor
/// preference (`Task(executorPreference: loop)`) runs its synchronous stretches on the loop's
/// thread, and resumes there after every `await`. A request that is mostly hand-offs (decode,
/// queue a write, encode the answer) then costs no wake-ups of the global pool's threads:
/// whoever resumes it queues the job on the loop, as `execute` does for any task.
///
/// Only for work that never blocks: everything the task runs between its `await`s runs on
/// the loop.
extension EventLoop: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
