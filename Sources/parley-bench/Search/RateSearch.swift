/// The search for the highest rate a server holds, apart from how a step is measured, so
/// that its rules can be tested with a step function that fails on purpose.
///
/// On a shared machine one noisy second can fail a step that the server holds (a neighbour's
/// build, the set-up's writes still being checkpointed). So a failed step is repeated up to
/// `retries` times before the search stops, and a scenario runs the whole search several
/// times and reports the median (`Spread`).
struct RateSearch {
    /// The rates to try and how stubbornly.
    struct Policy: Sendable {
        /// The first rate.
        var start: Double
        /// The multiplier between one rate and the next.
        var factor: Double
        /// No rate above this is tried.
        var maxRate: Double
        /// How often a failed step is repeated before the search concludes that its rate
        /// does not hold.
        var retries: Int
        /// False: one step at `start`, nothing else (a fixed-rate run; no retries either,
        /// since a fixed-rate run reports what happened rather than what holds).
        var findMax: Bool = true
    }

    /// One measured step as the search saw it.
    struct Attempt: Equatable, Sendable {
        var rate: Double
        /// 0 for a rate's first try, 1 for its first repeat, …
        var retry: Int
        var held: Bool
    }

    /// What one search found.
    struct Result: Sendable {
        var attempts: [Attempt] = []
        /// The highest rate that held, or nil if none did.
        var maxHeld: Double?
    }

    let policy: Policy

    /// Runs the search: `step(rate, retry)` measures one step and says whether it held;
    /// `canContinue` is asked before each further step (e.g. whether any connection is
    /// still open). Bounded: at most `(retries + 1)` steps per rate, and rates grow by
    /// `factor > 1` up to `maxRate`.
    func run(canContinue: () -> Bool = { true }, step: (Double, Int) throws -> Bool) rethrows -> Result {
        precondition(policy.factor > 1 && policy.retries >= 0, "a search must rise and retry a bounded number of times")
        var result = Result()
        var rate = policy.start
        while true {
            var held = false
            var retry = 0
            while true {
                held = try step(rate, retry)
                result.attempts.append(Attempt(rate: rate, retry: retry, held: held))
                guard !held, policy.findMax, retry < policy.retries, canContinue() else { break }
                retry += 1
            }
            guard held else { break }
            result.maxHeld = rate
            guard policy.findMax, rate * policy.factor <= policy.maxRate, canContinue() else { break }
            rate *= policy.factor
        }
        return result
    }
}
