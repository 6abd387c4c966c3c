import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handlers of reports and group disband (docs/protocol.md, "Reports", "Groups").
    static func registerModeration(on table: OperationTableBuilder, reports: ReportService, groups: GroupService) {
        table.on(Op.ReportCreate.self) { context, parameters throws(ProtocolError) in
            try await reports.create(by: context.user, parameters)
        }
        table.on(Op.GroupDisband.self) { context, reference throws(ProtocolError) in
            try await groups.disband(by: context.user, reference)
            return reference
        }
    }
}
