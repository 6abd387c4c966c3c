public import Testing

/// Waits, in 1 ms steps, until `condition` holds; records an issue and throws once `seconds`
/// have passed without it, so a test that waits for the store never hangs.
public func eventually(within seconds: Double = 30, _ what: Comment, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting: \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}
