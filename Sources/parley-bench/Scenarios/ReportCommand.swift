/// `report`: prints the results that scenarios appended to a file with `--results`, as one
/// table (a metric recorded by several runs as its median and spread), then the issue's
/// aims judged on the raw data the scenarios recorded beside them.
enum ReportCommand: BenchCommand {
    static let name = "report"
    static let summary = "print the results collected with --results FILE as one table, and the aims met or not"
    static let help = """
        --results FILE   the file (required)
        --title TEXT     a line printed above the table
        --markdown       print the tables as Markdown
        """
    static let valueOptions: Set<String> = ["results", "title"]
    static let switchOptions: Set<String> = ["markdown"]

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let summary = ResultSummary(try ResultLog(path: try options.string("results")).read())
        var table = ResultTable(headers: ["scenario", "metric", "value"])
        var previous = ""
        for row in summary.rows {
            table.add([row.scenario == previous ? "" : row.scenario, row.metric, row.value])
            previous = row.scenario
        }
        if let title = options.optionalString("title") { Console.line(title) }
        table.print(markdown: options.flag("markdown"))
        if !summary.data.isEmpty {
            Console.line("")
            Console.line("The durable 1:1 path's aims (ratios from this run; median where a figure was measured more than once):")
            IssueAims.table(IssueAims.verdicts(summary.data)).print(markdown: options.flag("markdown"))
        }
        return 0
    }
}
