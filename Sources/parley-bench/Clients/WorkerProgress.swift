/// What a `connections-worker` last reported, parsed from its output lines.
struct WorkerProgress {
    /// Connections opened, failed to open, and closed after opening (cumulative).
    var opened = 0, failed = 0, closed = 0
    /// Whether every planned connection has opened or failed.
    var settled = false
    /// Errors by reason (cumulative, as the worker last reported them).
    var errors: [String: Int] = [:]

    /// Connections the worker holds open now.
    var open: Int { opened - closed }

    /// Takes in one output line; unknown lines are returned for the caller to show.
    mutating func consume(_ line: String) -> String? {
        if line.hasPrefix("status ") {
            for field in line.dropFirst(7).split(separator: " ") {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let value = Int(pair[1]) else { continue }
                switch pair[0] {
                case "opened": opened = value
                case "failed": failed = value
                case "closed": closed = value
                case "settled": settled = value != 0
                default: break
                }
            }
            return nil
        }
        if line.hasPrefix("error\t") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, let count = Int(fields[1]) {
                errors[String(fields[2])] = count
                return nil
            }
        }
        return line
    }
}
