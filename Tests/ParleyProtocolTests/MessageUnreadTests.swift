import ParleyProtocol
import Testing

/// What counts as unread on a client, by the rule the stores count by.
@Suite struct MessageUnreadTests {
    let me = UserID(1)
    let bob = UserID(2)

    func message(_ kind: MessageKind, from sender: UserID?, system: SystemNotice? = nil) -> Message {
        Message(id: "9", conversationId: ConversationID(5), seq: 3, sender: sender, clientId: nil, kind: kind, text: "x",
                system: system, createdAt: 0)
    }

    @Test func messagesFromOthersAndNoticesCount() {
        #expect(message(.text, from: bob).countsAsUnread(for: me))
        #expect(message(.voice, from: bob).countsAsUnread(for: me))
        #expect(message(.system, from: nil, system: SystemNotice(type: .memberJoined, actor: bob)).countsAsUnread(for: me))
        #expect(message(.system, from: nil, system: SystemNotice(type: .friendAdded, actor: me)).countsAsUnread(for: me))
    }

    @Test func ownMessagesActionsAndRecalledMessagesDoNot() {
        #expect(!message(.text, from: me).countsAsUnread(for: me))
        for type in [SystemNoticeType.messageEdited, .messageRecalled, .reactionAdded, .reactionRemoved, .messagePinned,
                     .messageUnpinned, .messageListened] {
            let action = message(.system, from: bob, system: SystemNotice(type: type, actor: bob, messageId: "7"))
            #expect(!action.countsAsUnread(for: me), "\(type)")
        }
        var recalled = message(.text, from: bob)
        recalled.recalled = RecallMark(by: bob, at: 1)
        #expect(!recalled.countsAsUnread(for: me))
    }
}
