import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handlers of `message.search`, `user.search` and `user.findable` (docs/protocol.md,
    /// "Search"), calls into the core's `MessageSearchService` and `UserSearchService`.
    static func registerSearch(on table: OperationTableBuilder, search: MessageSearchService, people: UserSearchService) {
        table.on(Op.MessageSearch.self) { context, parameters throws(ProtocolError) in
            try await search.search(for: context.user, parameters)
        }
        table.on(Op.UserSearch.self) { context, parameters throws(ProtocolError) in
            try await people.search(for: context.user, parameters)
        }
        table.on(Op.UserFindable.self) { context, setting throws(ProtocolError) in
            try await people.findable(for: context.user, setting)
        }
    }
}
