import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// What receipts keep: delivered markers beside the read markers, and privacy choices.
@Suite struct StoreContractReceiptTests {
    @Test(arguments: StoreBackend.available) func deliveredMarkersNeverMoveBackNorPastTheNewestMessage(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let conversation = try await store.write { writer in
                let conversation = try writer.insertConversation(NewConversation(kind: .user, userA: ann, userB: bob, createdAt: 1))
                for person in [ann, bob] {
                    try writer.saveMember(StoredMember(conversationID: conversation.id, userID: person, role: .member, joinedAt: 1, readSeq: 0))
                }
                for index in 1...3 {
                    _ = try writer.appendMessage(NewMessage(conversationID: conversation.id, sender: ann, clientID: "c\(index)", kind: .text,
                                                            text: "m\(index)", createdAt: 10))
                }
                return conversation.id
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
}
