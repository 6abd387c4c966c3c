import ParleyCore
import ParleyProtocol
import Testing

/// `appendMessage(_:markingReadBySender:)`, the send path's one call: the same message as
/// `appendMessage`, the sender's read marker moved to it, and a refused client id leaving
/// nothing behind.
@Suite struct StoreContractSendTests {
    /// Two members of their 1:1 conversation, read markers at 0.
    private func chat(_ store: any Store) async throws -> (ann: UserID, bob: UserID, conversation: ConversationID) {
        let people = try await insertUsers(store, ["ann", "bob"])
        let conversation = try await insertDirectConversation(store, people[0].id, people[1].id)
        try await store.write { writer in
            for person in people {
                try writer.saveMember(StoredMember(conversationID: conversation.id, userID: person.id, role: .member,
                                                   joinedAt: 1, readSeq: 0))
            }
        }
        return (people[0].id, people[1].id, conversation.id)
    }

    private func text(_ conversation: ConversationID, from sender: UserID, clientID: String, _ text: String = "hi",
                      at time: Int64 = 1_000) -> NewMessage {
        NewMessage(conversationID: conversation, sender: sender, clientID: clientID, kind: .text, text: text, createdAt: time)
    }

    private func readSeq(_ store: any Store, _ conversation: ConversationID, _ user: UserID) async throws -> Int64? {
        try await store.read { try $0.member(of: conversation, user: user)?.readSeq }
    }

    @Test(arguments: StoreBackend.available) func storesTheMessageAndMovesOnlyTheSendersMarker(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let sent = try await store.write { writer in
                [try writer.appendMessage(self.text(conversation, from: ann, clientID: "a1", "hello \"you\" 🌍", at: 10),
                                          markingReadBySender: true),
                 try writer.appendMessage(self.text(conversation, from: bob, clientID: "b1", at: 20), markingReadBySender: true),
                 try writer.appendMessage(self.text(conversation, from: ann, clientID: "a2", at: 15), markingReadBySender: false)]
            }
            #expect(sent.map(\.seq) == [1, 2, 3])
            #expect(sent[0] == Message(id: sent[0].id, conversationId: conversation, seq: 1, sender: ann, clientId: "a1",
                                       kind: .text, text: "hello \"you\" 🌍", createdAt: 10))
            let ids = sent.compactMap { Int64($0.id) }
            #expect(ids.count == 3 && ids == ids.sorted() && Set(ids).count == 3)
            try await store.read { reader throws in
                for message in sent {
                    #expect(try reader.message(in: conversation, seq: message.seq) == message)
                }
                let stored = try reader.conversation(id: conversation)
                #expect(stored?.lastSeq == 3)
                // Last activity never moves back (the third message is older than the second).
                #expect(stored?.lastActivityAt == 20)
            }
            // Ann read up to her first message and was not moved by her third (not marking).
            #expect(try await readSeq(store, conversation, ann) == 1)
            #expect(try await readSeq(store, conversation, bob) == 2)
        }
    }

    @Test(arguments: StoreBackend.available) func aReusedClientIDChangesNothingAndTheWriteGoesOn(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let first = try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "same"),
                                                                     markingReadBySender: true) }
            _ = try await store.write { try $0.appendMessage(self.text(conversation, from: bob, clientID: "b"), markingReadBySender: true) }
            let (refused, next) = try await store.write { writer -> (Bool, Message) in
                var refused = false
                do {
                    _ = try writer.appendMessage(self.text(conversation, from: ann, clientID: "same", "again"), markingReadBySender: true)
                } catch StoreError.conflict("client_id") {
                    refused = true
                    // Nothing moved: not the counter, not Ann's marker.
                    #expect(try writer.conversation(id: conversation)?.lastSeq == 2)
                    #expect(try writer.member(of: conversation, user: ann)?.readSeq == 1)
                }
                return (refused, try writer.appendMessage(self.text(conversation, from: bob, clientID: "b2"), markingReadBySender: true))
            }
            #expect(refused)
            #expect(next.seq == 3)
            #expect(try await store.read { try $0.message(sender: ann, clientID: "same") } == first)
            #expect(try await store.read { try $0.messages(in: conversation, after: 0, limit: 10) }.map(\.seq) == [1, 2, 3])
            #expect(try await readSeq(store, conversation, ann) == 1)
            #expect(try await readSeq(store, conversation, bob) == 3)
        }
    }

    @Test(arguments: StoreBackend.available) func aSenderWhoIsNotAMemberGetsNoMarker(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (_, _, conversation) = try await chat(store)
            let outsider = try await insertUsers(store, ["cy"])[0].id
            let message = try await store.write { try $0.appendMessage(self.text(conversation, from: outsider, clientID: "c"),
                                                                       markingReadBySender: true) }
            #expect(message.seq == 1)
            #expect(try await readSeq(store, conversation, outsider) == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func anUnknownConversationOrSenderFailsTheWriteAndKeepsNothing(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, conversation) = try await chat(store)
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.appendMessage(self.text(ConversationID(9_999), from: ann, clientID: "x"),
                                                             markingReadBySender: true) }
            }
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.appendMessage(self.text(conversation, from: UserID(9_999), clientID: "y"),
                                                             markingReadBySender: true) }
            }
            let next = try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "z"),
                                                                    markingReadBySender: true) }
            #expect(next.seq == 1)
            #expect(try await store.read { try $0.messages(in: conversation, after: 0, limit: 10) }.map(\.clientId) == ["z"])
        }
    }
}
