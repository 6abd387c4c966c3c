/// Several upkeeps of one writer as one: due when the first of them is, and a step runs every
/// one that is due, in the order given (an earlier one's work may feed a later one's).
package final class WriterUpkeeps: WriterUpkeep {
    private let upkeeps: [any WriterUpkeep]

    package init(_ upkeeps: [any WriterUpkeep]) {
        self.upkeeps = upkeeps
    }

    package func due(at now: ContinuousClock.Instant) -> Duration? {
        upkeeps.compactMap { $0.due(at: now) }.min()
    }

    package func runStep(at now: ContinuousClock.Instant) {
        for upkeep in upkeeps {
            if let wait = upkeep.due(at: now), wait <= .zero { upkeep.runStep(at: now) }
        }
    }
}
