/// A failure reported by libpq or the PostgreSQL server.
struct PostgresError: Error, CustomStringConvertible {
    /// The SQLSTATE code ("23505"), empty when the failure happened in libpq itself (a lost
    /// connection, say) and the server never answered.
    let sqlState: String
    /// What went wrong, as PostgreSQL words it. Server messages name tables, columns and
    /// constraints; Parley binds every value as a parameter, so values appear only in the
    /// `DETAIL` field, which is not kept here.
    let message: String
    /// The constraint an integrity error broke (`users_username_key`), if any.
    let constraint: String?

    /// A unique index or constraint refused a duplicate.
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// The transaction lost a race it may win if run again: a deadlock (40P01) or a
    /// serialization failure (40001). The whole transaction has to be retried.
    var isTransient: Bool { sqlState == "40P01" || sqlState == "40001" }

    /// The statement failed because an earlier one in the transaction did (25P02).
    var isInFailedTransaction: Bool { sqlState == "25P02" }

    var description: String {
        sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))"
    }
}
