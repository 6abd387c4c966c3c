/// One subcommand of `parley-bench`: a scenario, a worker, or a helper.
protocol BenchCommand {
    /// The word on the command line.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The options, one per line, for `parley-bench <name> --help`.
    static var help: String { get }
    /// Options that take a value.
    static var valueOptions: Set<String> { get }
    /// Options that are switches.
    static var switchOptions: Set<String> { get }
    /// Left out of the command list (internal plumbing such as workers).
    static var hidden: Bool { get }
    /// Runs the command; returns the process exit status.
    static func run(_ options: CommandLineOptions) throws -> Int32
}

extension BenchCommand {
    static var switchOptions: Set<String> { [] }
    static var hidden: Bool { false }
}
