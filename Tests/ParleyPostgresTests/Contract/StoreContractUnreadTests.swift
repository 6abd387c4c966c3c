import ParleyCore
import ParleyProtocol
import Testing

/// What counts as unread: messages from others (any kind, forwarded too) and notices such as
/// a join, but not the events that act on an earlier message (edits, recalls, reactions,
/// pins, listened marks), nor the reader's own messages; a recalled message stops counting.
@Suite struct StoreContractUnreadTests {
    @Test(arguments: StoreBackend.available) func onlyMessagesFromOthersAndNoticesCountNotActionsOnMessages(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["me", "bob", "dee"])
            let (me, bob, dee) = (people[0].id, people[1].id, people[2].id)
            let group = try await store.write { writer in
                let group = try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: me, createdAt: 1))
                for user in [me, bob] {
                    try writer.saveMember(StoredMember(conversationID: group.id, userID: user, role: user == me ? .owner : .member,
                                                       joinedAt: 1, readSeq: 0))
                }
                return group
            }
            var sent = 0
            func append(_ sender: UserID?, _ kind: MessageKind, text: String? = nil, image: ImageAttachment? = nil,
                        system: SystemNotice? = nil, forwarded: Bool? = nil) async throws -> Message {
                sent += 1
                let message = NewMessage(conversationID: group.id, sender: sender, clientID: sender == nil ? nil : "c\(sent)",
                                         kind: kind, text: text, image: image, system: system, createdAt: Int64(100 + sent),
                                         forwarded: forwarded)
                return try await store.write { try $0.appendMessage(message) }
            }
            // Counted for me: bob's text, image and forwarded text, and a join notice.
            let text = try await append(bob, .text, text: "hello")
            let picture = try await append(bob, .image, image: ImageAttachment(mediaId: "m1", url: "/v1/media/m1", width: 2, height: 2))
            _ = try await append(bob, .text, text: "passed on", forwarded: true)
            _ = try await append(nil, .system, system: SystemNotice(type: .memberJoined, actor: dee))
            // Not counted for me: my own message, and every action on a message, whoever did it.
            let mine = try await append(me, .text, text: "mine")
            for type in [SystemNoticeType.messageEdited, .reactionAdded, .reactionRemoved, .messagePinned, .messageUnpinned,
                         .messageListened] {
                _ = try await append(bob, .system, system: SystemNotice(type: type, actor: bob, messageId: mine.id, emoji: "👍"))
            }
            _ = try await append(nil, .system, system: SystemNotice(type: .messageRecalled, actor: nil, messageId: mine.id))

            func counts(_ user: UserID) async throws -> (one: Int64, inbox: Int64?, total: Int64) {
                try await store.read { reader in
                    (try reader.unreadCount(in: group.id, for: user, after: 0),
                     try reader.inbox(of: user).first { $0.conversation.id == group.id }?.unread,
                     try reader.totalUnread(for: user))
                }
            }
            var forMe = try await counts(me)
            #expect(forMe.one == 4 && forMe.inbox == 4 && forMe.total == 4)
            // For bob: my text and the join notice; his own messages and actions never count.
            let bobs = try await counts(bob)
            #expect(bobs.one == 2 && bobs.inbox == 2 && bobs.total == 2)

            // Recalling an unread message takes it out of the count (its notice never counted).
            var erased = picture
            erased.image = nil
            erased.recalled = RecallMark(by: bob, at: 200)
            let recalled = erased
            try await store.write { try $0.replaceMessage(recalled) }
            _ = try await append(bob, .system, system: SystemNotice(type: .messageRecalled, actor: bob, messageId: picture.id))
            forMe = try await counts(me)
            #expect(forMe.one == 3 && forMe.inbox == 3 && forMe.total == 3)

            // After the marker: only what follows it counts.
            _ = try await store.write { try $0.markRead(conversation: group.id, user: me, upTo: text.seq) }
            #expect(try await store.read { try $0.unreadCount(in: group.id, for: me, after: text.seq) } == 2)
            let afterMarker = try await counts(me)
            #expect(afterMarker.inbox == 2 && afterMarker.total == 2)
        }
    }
}
