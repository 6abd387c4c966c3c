import ParleyStoreSupport
import Testing

/// Several upkeeps of one writer as one (the SQLite store's apply of message rows, then its
/// search index): due when the first is, and a step runs exactly those due, in order.
@Suite struct WriterUpkeepsTests {
    /// An upkeep due after a fixed wait (nil: nothing waits) that records its steps.
    private final class Recorded: WriterUpkeep {
        let name: String
        var wait: Duration?
        let steps: Steps

        init(_ name: String, wait: Duration?, steps: Steps) {
            self.name = name
            self.wait = wait
            self.steps = steps
        }

        func due(at now: ContinuousClock.Instant) -> Duration? { wait }

        func runStep(at now: ContinuousClock.Instant) {
            steps.names.append(name)
            wait = nil
        }
    }

    private final class Steps {
        var names: [String] = []
    }

    @Test func dueIsTheEarliestAndAStepRunsTheDueOnesInOrder() {
        let steps = Steps()
        let apply = Recorded("apply", wait: .milliseconds(30), steps: steps)
        let index = Recorded("index", wait: .milliseconds(10), steps: steps)
        let upkeeps = WriterUpkeeps([apply, index])
        let now = ContinuousClock.now
        #expect(upkeeps.due(at: now) == .milliseconds(10))
        upkeeps.runStep(at: now)
        #expect(steps.names.isEmpty)
        index.wait = .zero
        upkeeps.runStep(at: now)
        #expect(steps.names == ["index"])
        apply.wait = .zero
        index.wait = .zero
        upkeeps.runStep(at: now)
        #expect(steps.names == ["index", "apply", "index"])
        #expect(upkeeps.due(at: now) == nil)
    }
}
