/// The limits of reports and of the admin API (docs/operations.md, "Administration"), set
/// from the server's configuration.
public struct ModerationRules: Sendable, Equatable {
    /// Reports one user may file per hour; more are refused with `rate_limited`.
    public var reportsPerHour = 20
    /// A report's note, in UTF-8 bytes.
    public var reportNoteBytes = 1_000
    /// A reason an administrator gives (suspension, resolution, removal), in UTF-8 bytes.
    public var adminReasonBytes = 500
    /// Rows in one page of reports, users or the audit log.
    public var adminPageSize = 50
    /// Messages shown on each side of a reported message.
    public var contextMessages = 5

    public init() {}
}
