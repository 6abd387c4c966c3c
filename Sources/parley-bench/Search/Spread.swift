/// The median of several measurements of one figure with its lowest and highest value: how
/// a search's result is reported on a machine whose neighbours move single runs.
struct Spread: Equatable, Sendable {
    let median: Double
    let min: Double
    let max: Double
    /// How many values there were.
    let count: Int

    /// Nil for no values. An even count's median is the mean of the middle two.
    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
        count = sorted.count
    }

    /// `8,000 (6,000–9,000, 3 searches)`, or just the value when there was one.
    func text(_ format: (Double) -> String, of what: String = "searches") -> String {
        guard count > 1 else { return format(median) }
        return "\(format(median)) (\(format(min))–\(format(max)), \(count) \(what))"
    }
}
