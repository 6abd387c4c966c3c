import Glibc

/// The search for the highest rate a server holds, apart from how a step is measured, so
/// that its rules can be tested with a step function that fails on purpose.
///
/// On a shared machine one noisy second can fail a step that the server holds (a neighbour's
/// build, the set-up's writes still being checkpointed). So a failed step is repeated up to
/// `retries` times before the search stops, and a scenario runs the whole search several
/// times and reports the median (`Spread`).
///
/// Rates rise by a fixed factor (2 in `make bench`), so a search's answer alone could only
/// move by 2×, and a ratio between two servers by 2× with one unlucky step. After the rise
/// stops, `refinements` more steps bisect (geometrically) between the highest rate that held
/// and the lowest that failed, so 2 refinements narrow a factor of 2 to 2^¼ ≈ 1.19.
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
        /// How many bisecting steps follow the rise (each with the same repeats).
        var refinements: Int = 0
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
    /// still open). Bounded: at most `(retries + 1)` steps per rate, rates grow by
    /// `factor > 1` up to `maxRate`, and then at most `refinements` rates are bisected.
    func run(canContinue: () -> Bool = { true }, step: (Double, Int) throws -> Bool) rethrows -> Result {
        precondition(policy.factor > 1 && policy.retries >= 0 && policy.refinements >= 0,
                     "a search must rise, retry and refine a bounded number of times")
        var result = Result()
        /// One rate, repeated while it fails and may be repeated.
        func attempt(_ rate: Double) throws -> Bool {
            var retry = 0
            while true {
                let held = try step(rate, retry)
                result.attempts.append(Attempt(rate: rate, retry: retry, held: held))
                guard !held, policy.findMax, retry < policy.retries, canContinue() else { return held }
                retry += 1
            }
        }
        var rate = policy.start
        var failed: Double?
        while true {
            guard try attempt(rate) else {
                failed = rate
                break
            }
            result.maxHeld = rate
            guard policy.findMax, rate * policy.factor <= policy.maxRate, canContinue() else { break }
            rate *= policy.factor
        }
        // Bisect between the highest rate that held and the lowest that failed; a search
        // that held nothing, or stopped at `maxRate` without failing, has nothing to narrow.
        guard policy.findMax, var low = result.maxHeld, var high = failed else { return result }
        for _ in 0..<policy.refinements {
            let middle = Self.rounded((low * high).squareRoot())
            guard middle > low, middle < high, canContinue() else { break }
            if try attempt(middle) {
                low = middle
                result.maxHeld = middle
            } else {
                high = middle
            }
        }
        return result
    }

    /// `rate` to three significant digits, so steps read as 5,660 rather than 5,656.854.
    static func rounded(_ rate: Double) -> Double {
        guard rate >= 1000 else { return rate.rounded() }
        let unit = Double(Glibc.pow(10.0, Double(Int(Glibc.log10(rate))) - 2))
        return (rate / unit).rounded() * unit
    }
}
