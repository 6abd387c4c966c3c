import ParleyCore

// The limits of reports and of the admin API (docs/operations.md, "Administration").
extension ServerConfiguration {
    static func adminOptions() -> [Option] {
        [
            number("max-reports-per-hour", \.maxReportsPerHour, 1...10_000, "reports one user may file per hour", exceeded: "answered `rate_limited` with `retryAfterSeconds`"),
            number("max-report-note-bytes", \.maxReportNoteBytes, 0...100_000, "bytes of a report's note", exceeded: "answered `invalid_field` (`note`)"),
            number("max-admin-reason-bytes", \.maxAdminReasonBytes, 1...100_000, "bytes of a reason an administrator gives", exceeded: "answered `invalid_field` (`reason`)"),
            number("admin-page-size", \.adminPageSize, 1...1_000, "rows in one page of the admin API (reports, users, audit log)", exceeded: "the page ends and gives a `next` cursor"),
            text("admin-socket", \.adminSocket, "path of the local admin socket (`parley admin` talks to a running server through it); empty: `<data>/admin.sock`; `off`: none"),
            number("admin-socket-timeout", \.adminSocketTimeoutSeconds, 1...3_600, "seconds an admin socket connection may stay silent", exceeded: "the connection is closed"),
            number("max-admin-socket-line-bytes", \.maxAdminSocketLineBytes, 1_024...16_777_216, "bytes of one admin socket request line", exceeded: "answered `payload_too_large` and closed"),
            number("max-admin-socket-connections", \.maxAdminSocketConnections, 1...64, "admin socket connections served at once", exceeded: "the next one is answered `unavailable` and closed"),
        ]
    }

    /// Where the local admin socket is, or nil when `--admin-socket off`.
    public var adminSocketPath: String? {
        switch adminSocket {
        case "off": return nil
        case "": return dataDirectory + "/admin.sock"
        default: return adminSocket
        }
    }

    /// The core's moderation rules from these settings.
    var moderationRules: ModerationRules {
        var rules = ModerationRules()
        rules.reportsPerHour = maxReportsPerHour
        rules.reportNoteBytes = maxReportNoteBytes
        rules.adminReasonBytes = maxAdminReasonBytes
        rules.adminPageSize = adminPageSize
        return rules
    }
}
