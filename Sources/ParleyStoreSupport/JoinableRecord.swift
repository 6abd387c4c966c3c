/// A record read from a list of columns that queries also join with other tables' (the
/// inbox: a conversation, the user's membership and the last message in one row), so the
/// list is written once and qualified by a table alias where needed.
package protocol JoinableRecord {
    /// The columns `init(row:at:)` reads, in its order.
    static var columns: [String] { get }
}

extension JoinableRecord {
    /// `columns` qualified by `table`, for joins.
    package static func selectColumns(of table: String) -> String {
        columns.map { "\(table).\($0)" }.joined(separator: ", ")
    }
}
