/// `report`: prints the results that scenarios appended to a file with `--results`, as one
/// table.
enum ReportCommand: BenchCommand {
    static let name = "report"
    static let summary = "print the results collected with --results FILE as one table"
    static let help = """
        --results FILE   the file (required)
        --title TEXT     a line printed above the table
        --markdown       print the table as Markdown
        """
    static let valueOptions: Set<String> = ["results", "title"]
    static let switchOptions: Set<String> = ["markdown"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let entries = try ResultLog(path: try options.string("results")).read()
        var table = ResultTable(headers: ["scenario", "metric", "value"])
        var previous = ""
        for entry in entries {
            table.add([entry.scenario == previous ? "" : entry.scenario, entry.metric, entry.value])
            previous = entry.scenario
        }
        if let title = options.optionalString("title") { Console.line(title) }
        table.print(markdown: options.flag("markdown"))
        return 0
    }
}
