import ParleySync

/// Where the core reports a failure it can only answer as `internal_error` (a storage or
/// blocking-pool failure, `StoreGateway.translate`): the client learns nothing more, so the
/// operator must, from the server's log. The server sets the reporter once at start; until
/// then (tools, tests that set none) reports go nowhere.
///
/// A reporter must be quick and must not throw: it runs on the thread that saw the failure
/// (a writer's, a loop's, the pool's). What it gets is the error's description, which names
/// the failing step and the store's message, never a request's text, token or password.
public enum InternalFailures {
    private static let reporter = PThreadMutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends every later report to `report` (replacing the previous reporter).
    public static func setReporter(_ report: @escaping @Sendable (String) -> Void) {
        reporter.withLock { $0 = report }
    }

    /// Reports `error`, answered to a client as `internal_error`.
    static func report(_ error: any Error) {
        guard let report = reporter.withLock({ $0 }) else { return }
        report(String(describing: error))
    }
}
