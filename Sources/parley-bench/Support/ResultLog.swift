import Foundation

/// Collects headline results of several runs in one file (`--results FILE`), so that
/// `make bench` can run each scenario as its own process and still print one table at the
/// end (`parley-bench report FILE`). One tab-separated line per result:
/// scenario, metric, value.
struct ResultLog {
    /// The file the results are appended to.
    let path: String

    /// Appends one result.
    func append(scenario: String, metric: String, value: String) throws(BenchError) {
        let line = [scenario, metric, value].map(Self.clean).joined(separator: "\t") + "\n"
        guard let handle = FileHandle(forWritingAtPath: path) ?? Self.create(path) else {
            throw .system("cannot write results to \(path)")
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            throw .system("cannot write results to \(path): \(error)")
        }
    }

    /// The scenario name that marks a raw datum (a number under a fixed key, for
    /// `IssueAims`) rather than a line of the results table.
    static let datumScenario = "#datum"

    /// Appends one raw number under `key` (see `IssueAims`); `report` leaves these out of its
    /// table and judges the aims on them.
    func appendDatum(_ key: String, _ value: Double) throws(BenchError) {
        try append(scenario: Self.datumScenario, metric: key, value: "\(value)")
    }

    /// Every result in the file, in order.
    func read() throws(BenchError) -> [(scenario: String, metric: String, value: String)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .system("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 3 ? (fields[0], fields[1], fields[2]) : nil
        }
    }

    private static func create(_ path: String) -> FileHandle? {
        FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }

    /// Tabs and newlines would break the line format.
    private static func clean(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
    }
}
