/// A file's size as people read it: `512 B`, `3 KB`, `1.2 MB`, `2.5 GB` (powers of 1024, one
/// decimal below ten units, as file managers show them).
public enum FileSizeText {
    /// `bytes` in the largest unit that keeps the number at least 1.
    public static func text(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return "\(max(0, bytes)) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if value < 10 {
            let tenths = Int((value * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10) \(units[unit])" : "\(tenths / 10).\(tenths % 10) \(units[unit])"
        }
        return "\(Int(value.rounded())) \(units[unit])"
    }
}
