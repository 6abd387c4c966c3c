import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// What receipts keep: delivered markers beside the read markers, and privacy choices.
@Suite struct StoreContractReceiptTests {
    @Test(arguments: StoreBackend.available) func deliveredMarkersNeverMoveBackNorPastTheNewestMessage(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, cy, conversation) = try await annAndBobWithCy(store)
            try await store.write { writer in
                for index in 1...3 {
                    _ = try writer.appendMessage(NewMessage(conversationID: conversation, sender: ann, clientID: "c\(index)", kind: .text,
                                                            text: "m\(index)", createdAt: 10))
                }
            }
            #expect(try await store.read { reader in try reader.deliveredSeq(in: conversation, user: bob) } == 0)
            let moves = try await store.write { writer in
                [try writer.markDelivered(conversation: conversation, user: bob, upTo: 2),
                 try writer.markDelivered(conversation: conversation, user: bob, upTo: 1),
                 try writer.markDelivered(conversation: conversation, user: bob, upTo: 99),
                 try writer.markDelivered(conversation: conversation, user: cy, upTo: 2)]
            }
            // Forward, never back, capped at the newest message; a non-member gets nothing.
            #expect(moves == [2, 2, 3, 0])
            #expect(try await store.read { reader in
                [try reader.deliveredSeq(in: conversation, user: bob), try reader.deliveredSeq(in: conversation, user: cy),
                 try reader.deliveredSeq(in: conversation, user: ann)]
            } == [3, 0, 0])
        }
    }

    @Test(arguments: StoreBackend.available) func theSendMovesItsRecipientsMarkerToTheMessageItAppended(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, cy, conversation) = try await annAndBobWithCy(store)
            // As the send does: append, then move the online recipient's marker in the same
            // write. The first move makes bob's marker row; later ones move it; cy is no member.
            let moves = try await store.write { writer in
                try (1...3).map { index in
                    let message = try writer.appendMessage(NewMessage(conversationID: conversation, sender: index == 2 ? bob : ann,
                                                                      clientID: "c\(index)", kind: .text, text: "m\(index)", createdAt: 10),
                                                           markingReadBySender: true)
                    return [try writer.markDelivered(conversation: conversation, user: bob, toAppended: message.seq),
                            try writer.markDelivered(conversation: conversation, user: cy, toAppended: message.seq)]
                }
            }
            #expect(moves == [[1, 0], [2, 0], [3, 0]])
            let (ann4, bob4) = try await store.write { writer in
                let message = try writer.appendMessage(NewMessage(conversationID: conversation, sender: bob, clientID: "c4", kind: .text,
                                                                  text: "m4", createdAt: 11), markingReadBySender: true)
                return (try writer.markDelivered(conversation: conversation, user: ann, toAppended: message.seq),
                        try writer.markDelivered(conversation: conversation, user: bob, toAppended: message.seq))
            }
            #expect([ann4, bob4] == [4, 4])
            #expect(try await store.read { reader in
                [try reader.deliveredSeq(in: conversation, user: bob), try reader.deliveredSeq(in: conversation, user: ann),
                 try reader.deliveredSeq(in: conversation, user: cy)]
            } == [4, 4, 0])
        }
    }

    @Test(arguments: StoreBackend.available) func privacyChoicesStartSharedAndAreReplacedWhole(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let (ann, bob) = (people[0].id, people[1].id)
            #expect(try await store.read { reader in try reader.privacy(of: ann) } == PrivacySettings())
            let first = PrivacySettings(readReceipts: false, typing: true, lastSeen: .friends)
            let second = PrivacySettings(readReceipts: true, typing: false, lastSeen: .nobody)
            try await store.write { writer in try writer.savePrivacy(first, for: ann) }
            #expect(try await store.read { reader in try reader.privacy(of: ann) } == first)
            try await store.write { writer in try writer.savePrivacy(second, for: ann) }
            #expect(try await store.read { reader in [try reader.privacy(of: ann), try reader.privacy(of: bob)] } == [second, PrivacySettings()])
        }
    }

    /// Three users, and a 1:1 conversation of the first two (the third is no member).
    private func annAndBobWithCy(_ store: any Store) async throws -> (UserID, UserID, UserID, ConversationID) {
        let people = try await insertUsers(store, ["ann", "bob", "cy"])
        let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
        let conversation = try await store.write { writer in
            let conversation = try writer.insertConversation(NewConversation(kind: .user, userA: ann, userB: bob, createdAt: 1))
            for person in [ann, bob] {
                try writer.saveMember(StoredMember(conversationID: conversation.id, userID: person, role: .member, joinedAt: 1, readSeq: 0))
            }
            return conversation.id
        }
        return (ann, bob, cy, conversation)
    }
}
