/// Why a user reports something (`report.create`): a closed list, so moderators can sort
/// and filter reports without reading free text.
public enum ReportReason: String, Codable, Sendable, CaseIterable {
    case spam
    case abuse
    case illegal
    case other
}
