/// A consumer that sleeps until another thread hands it work and wakes it: an event loop
/// (its eventfd), a store's job queue (its condition variable).
///
/// A producer that hands out many pieces of work in one go (an event loop's turn, a store
/// writer's commit) can hold the wake-ups back with `DeferredWakeups`, so each consumer is
/// woken once for all of them instead of once, or several times, for each.
public protocol Wakeable: AnyObject, Sendable {
    /// Wakes the consumer: `count` pieces of work were queued for it since the wake-up was
    /// held back (at least one).
    func wake(count: Int)
}
