import Dispatch
import ParleyNet
import ParleySync

/// Runs a closure on each of several event loops and waits for all the answers: how the
/// main thread reads state that lives on the loops without locking it.
enum LoopTasks {
    /// `body(item)` for each item on `loop(item)`, results in item order.
    static func gather<Item: Sendable, Result: Sendable>(_ items: [Item], loop: (Item) -> EventLoop,
                                                         _ body: @escaping @Sendable (Item) -> Result) -> [Result] {
        let results = PThreadMutex<[Int: Result]>([:])
        let done = DispatchSemaphore(value: 0)
        for (index, item) in items.enumerated() {
            loop(item).execute {
                let value = body(item)
                results.withLock { $0[index] = value }
                done.signal()
            }
        }
        for _ in items { done.wait() }
        return results.withLock { table in items.indices.compactMap { table[$0] } }
    }
}
