/// Where a call that is not a task comes back to after the store's commit: its caller's own
/// thread (a connection's event loop), reached in one hop from the writer thread, with no
/// task, no continuation and no job of the concurrency runtime (`ConversationService.send`'s
/// completion form, the native 1:1 hot path).
public protocol CompletionHop: Sendable {
    /// Runs `work` later on the caller's thread. Called on a store's writer thread (or on the
    /// caller's own, when the store refused the write at once): it must only queue `work`,
    /// never run it in place, since every other write waits while it runs.
    func hop(_ work: @escaping @Sendable () -> Void)
}
