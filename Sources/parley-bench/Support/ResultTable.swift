/// A table of results, printed with aligned columns for a terminal or as Markdown for
/// `docs/benchmarks.md`. Numbers are right-aligned, text left-aligned.
struct ResultTable {
    /// The column titles.
    let headers: [String]
    /// The rows, each as many cells as there are headers.
    private(set) var rows: [[String]] = []

    init(headers: [String]) {
        self.headers = headers
    }

    /// Adds a row; missing cells are left empty, extra ones dropped.
    mutating func add(_ cells: [String]) {
        var row = Array(cells.prefix(headers.count))
        while row.count < headers.count { row.append("") }
        rows.append(row)
    }

    /// The table with space-aligned columns.
    func text() -> String {
        let widths = columnWidths()
        var lines = [line(headers, widths: widths, numeric: Array(repeating: false, count: headers.count))]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in rows {
            lines.append(line(row, widths: widths, numeric: row.map(Self.looksNumeric)))
        }
        return lines.joined(separator: "\n")
    }

    /// The table as GitHub Markdown.
    func markdown() -> String {
        var lines = ["| " + headers.joined(separator: " | ") + " |"]
        lines.append("|" + headers.map { _ in " --- |" }.joined())
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        return lines.joined(separator: "\n")
    }

    /// Prints the table (Markdown when `markdown` is set).
    func print(markdown: Bool = false) {
        Console.line(markdown ? self.markdown() : text())
    }

    private func columnWidths() -> [Int] {
        headers.indices.map { column in
            rows.reduce(headers[column].count) { max($0, $1[column].count) }
        }
    }

    private func line(_ cells: [String], widths: [Int], numeric: [Bool]) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
            parts.append(numeric[index] ? padding + cell : cell + padding)
        }
        var joined = parts.joined(separator: "  ")
        while joined.last == " " { joined.removeLast() }
        return joined
    }

    /// A cell starting with a digit (or a sign and a digit) is aligned as a number.
    private static func looksNumeric(_ cell: String) -> Bool {
        guard let first = cell.first else { return false }
        if first.isNumber { return true }
        return (first == "-" || first == "+") && cell.dropFirst().first?.isNumber == true
    }
}
