import Foundation

/// How numbers are shown in result tables: latencies with a unit that keeps three
/// significant digits, counts with thousands separators, sizes in binary units.
enum Format {
    /// `1.23 ms`, `845 µs`, `2.01 s`.
    static func latency(nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch value {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return significant(value / 1_000) + " µs"
        case ..<1_000_000_000: return significant(value / 1_000_000) + " ms"
        default: return significant(value / 1_000_000_000) + " s"
        }
    }

    /// `12,345`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A rate rounded to a whole number, with separators.
    static func rate(_ value: Double) -> String {
        count(Int(value.rounded()))
    }

    /// `812 B`, `3.10 KiB`, `41.2 MiB`.
    static func bytes(_ value: Double) -> String {
        let magnitude = abs(value)
        switch magnitude {
        case ..<1024: return String(format: "%.0f B", value)
        case ..<(1024 * 1024): return significant(value / 1024) + " KiB"
        case ..<(1024 * 1024 * 1024): return significant(value / (1024 * 1024)) + " MiB"
        default: return significant(value / (1024 * 1024 * 1024)) + " GiB"
        }
    }

    /// A percentage with one decimal.
    static func percent(_ value: Double) -> String {
        String(format: "%.1f %%", value)
    }

    /// Three significant digits: 1.23, 12.3, 123.
    static func significant(_ value: Double) -> String {
        switch abs(value) {
        case ..<10: return String(format: "%.2f", value)
        case ..<100: return String(format: "%.1f", value)
        default: return String(format: "%.0f", value)
        }
    }
}
