import ParleyProtocol

/// Changing a group's or a room's name, avatar and description: one set of rules for both.
/// Validated outside the store, applied inside a write, reported as an `info_changed`
/// system message listing what changed.
struct ConversationInfoEdit: Sendable {
    let update: GroupUpdate
    /// The new name, trimmed and valid, if the update sets one.
    let name: String?

    /// Checks the update's fields.
    init(_ update: GroupUpdate, context: MessagingContext) throws(ProtocolError) {
        if update.name == .clear { throw ProtocolError(.invalidName, "a name cannot be removed", field: "name") }
        if case .set(let raw) = update.name { name = try context.validName(raw) } else { name = nil }
        if case .set(let description) = update.description { try context.validDescription(description) }
        if case .set(let avatar) = update.avatar { try AccountValidator(rules: AccountRules()).validateAvatar(avatar) }
        self.update = update
    }

    /// Applies the change to `conversation` inside a write; returns the notice, or nil when
    /// nothing changed.
    func apply(to conversation: inout StoredConversation, by user: UserID, now: Int64, writer: StoreWriter) throws -> Message? {
        var fields: [String] = []
        if let name, name != conversation.name {
            if let other = try writer.conversation(kind: conversation.kind, name: name), other.id != conversation.id {
                throw ProtocolError(.nameTaken, "a \(conversation.kind.rawValue) named '\(name)' exists", field: "name")
            }
            conversation.name = name
            fields.append("name")
        }
        let avatar = update.avatar.applied(to: conversation.avatar)
        if avatar != conversation.avatar {
            conversation.avatar = avatar
            fields.append("avatar")
            try MediaReference.mark(avatar: avatar, at: now, writer: writer)
        }
        let description = update.description.applied(to: conversation.description)
        if description != conversation.description { conversation.description = description; fields.append("description") }
        guard !fields.isEmpty else { return nil }
        try writer.updateConversation(conversation)
        return try writer.appendMessage(NewMessage(
            conversationID: conversation.id, sender: nil, clientID: nil, kind: .system,
            system: SystemNotice(type: .infoChanged, actor: user, fields: fields, name: fields.contains("name") ? conversation.name : nil),
            createdAt: now))
    }
}
