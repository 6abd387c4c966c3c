// Reports and group disband (docs/protocol.md, "Reports" and "Groups"). The admin API is
// HTTP only (`/v1/admin/…`).
extension Op {
    /// Reports a message, a user or a conversation to the server's administrators; the
    /// message's content is kept for them as it is now.
    public enum ReportCreate: APIOperation {
        public typealias Parameters = ReportParameters
        public typealias Result = ReportReceipt
        public static let name = "report.create"
    }

    /// The owner ends a group: members hear `group.disbanded`, it leaves their lists and its
    /// history can no longer be read.
    public enum GroupDisband: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = ConversationReference
        public static let name = "group.disband"
    }
}
