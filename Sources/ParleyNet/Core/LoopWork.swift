/// One item of an event loop's queues: a closure given to `execute`, or a Swift job (a task's
/// or an actor's next stretch) given to the loop as an executor. A job is kept as it is rather
/// than wrapped in a closure, so running one costs no allocation: the 1:1 hot path runs two a
/// message. One queue for both keeps them in the order they were submitted.
enum LoopWork: Sendable {
    case closure(@Sendable () -> Void)
    case job(UnownedJob)
}
