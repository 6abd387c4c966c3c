import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handler of `message.search` (docs/protocol.md, "Search"), a call into the core's
    /// `MessageSearchService`.
    static func registerSearch(on table: OperationTableBuilder, search: MessageSearchService) {
        table.on(Op.MessageSearch.self) { context, parameters throws(ProtocolError) in
            try await search.search(for: context.user, parameters)
        }
    }
}
