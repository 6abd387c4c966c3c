public import ParleyProtocol

// Disbanding a group (docs/protocol.md, "Groups"): its owner, or an administrator through
// the admin API, ends it for everyone.
extension GroupService {
    /// The owner disbands the group.
    public func disband(by user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) {
        try await disband(parameters.conversationId, actor: user) { writer in
            _ = try ConversationAccess.group(parameters.conversationId, owner: user, reader: writer)
        }
    }

    /// An administrator disbands the group, whoever owns it (the caller has checked the role).
    public func disbandAsAdministrator(_ id: ConversationID, by admin: UserID?) async throws(ProtocolError) {
        try await disband(id, actor: admin) { writer in
            guard let group = try writer.conversation(id: id), group.kind == .group, group.ownerID != nil else {
                throw ProtocolError(.notFound, "no such group")
            }
        }
    }

    /// One write: the `group_disbanded` notice (the group's last event), every membership
    /// removed (so the group leaves every list and nobody may read its history), and the
    /// group's name and owner cleared (so no one may join it again, by name or by id, and the
    /// name is free). Then the former members hear the notice and `group.disbanded`.
    private func disband(_ id: ConversationID, actor: UserID?,
                         check: @escaping @Sendable (StoreWriter) throws -> Void) async throws(ProtocolError) {
        let membership = context.membership
        let now = context.clock()
        let (message, members) = try await context.gateway.write { writer in
            try check(writer)
            guard var group = try writer.conversation(id: id) else { throw ProtocolError(.notFound, "no such group") }
            let members = try writer.memberIDs(of: id)
            let message = try writer.appendMessage(NewMessage(conversationID: id, sender: nil, clientID: nil, kind: .system,
                                                              system: SystemNotice(type: .groupDisbanded, actor: actor),
                                                              createdAt: now))
            for member in members { try writer.deleteMember(of: id, user: member) }
            group.name = nil
            group.ownerID = nil
            try writer.updateConversation(group)
            membership.invalidate(id)
            return (message, members)
        }
        context.announce([message], to: members, kind: .group, excluding: nil)
        context.delivery.deliver(.groupDisbanded(ConversationReference(conversationId: id)), to: members, excluding: nil)
    }
}
