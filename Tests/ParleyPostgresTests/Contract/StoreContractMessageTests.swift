import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// Appending messages (gapless sequences, idempotent client ids) and reading them back.
@Suite struct StoreContractMessageTests {
    /// Two users and their 1:1 conversation.
    private func chat(_ store: any Store) async throws -> (ann: UserID, bob: UserID, conversation: ConversationID) {
        let people = try await insertUsers(store, ["ann", "bob"])
        let conversation = try await insertDirectConversation(store, people[0].id, people[1].id)
        return (people[0].id, people[1].id, conversation.id)
    }

    private func text(_ conversation: ConversationID, from sender: UserID?, clientID: String?, _ text: String = "hi",
                      at time: Int64 = 1_000) -> NewMessage {
        NewMessage(conversationID: conversation, sender: sender, clientID: clientID, kind: .text, text: text, createdAt: time)
    }

    @Test(arguments: StoreBackend.available) func everyKindRoundTripsWithItsClientID(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let image = ImageAttachment(mediaId: "m1", url: "/v1/media/m1", width: 640, height: 480)
            let notice = SystemNotice(type: .infoChanged, actor: ann, target: bob, fields: ["name", "avatar"], name: "新しい \"名前\"")
            let sent = try await store.write { writer in
                [try writer.appendMessage(self.text(conversation, from: ann, clientID: "c-1", "hello\n'world' 🌍", at: 10)),
                 try writer.appendMessage(NewMessage(conversationID: conversation, sender: bob, clientID: "c-1", kind: .image,
                                                     image: image, createdAt: 11)),
                 try writer.appendMessage(NewMessage(conversationID: conversation, sender: nil, clientID: nil, kind: .system,
                                                     system: notice, createdAt: 12)),
                 try writer.appendMessage(self.text(conversation, from: ann, clientID: nil, "", at: 13))]
            }
            #expect(sent.map(\.seq) == [1, 2, 3, 4])
            let ids = sent.compactMap { Int64($0.id) }
            #expect(ids.count == 4 && ids == ids.sorted() && Set(ids).count == 4)
            #expect(sent[0] == Message(id: sent[0].id, conversationId: conversation, seq: 1, sender: ann, clientId: "c-1",
                                       kind: .text, text: "hello\n'world' 🌍", createdAt: 10))
            #expect(sent[1].image == image && sent[1].clientId == "c-1" && sent[1].text == nil)
            #expect(sent[2].system == notice && sent[2].sender == nil && sent[2].clientId == nil)

            try await store.read { reader throws in
                for message in sent {
                    #expect(try reader.message(in: conversation, seq: message.seq) == message)
                }
                #expect(try reader.message(in: conversation, seq: 5) == nil)
                #expect(try reader.message(sender: ann, clientID: "c-1") == sent[0])
                #expect(try reader.message(sender: bob, clientID: "c-1") == sent[1])
                #expect(try reader.message(sender: bob, clientID: "c-2") == nil)
                let stored = try reader.conversation(id: conversation)
                #expect(stored?.lastSeq == 4)
                #expect(stored?.lastActivityAt == 13)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func twoHundredConcurrentAppendsGetSequenceNumbersOneToTwoHundred(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let sent = try await withThrowingTaskGroup(of: Message.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await store.write { writer in
                            try writer.appendMessage(self.text(conversation, from: index.isMultiple(of: 2) ? ann : bob,
                                                               clientID: "c\(index)", "\(index)"))
                        }
                    }
                }
                return try await group.reduce(into: [Message]()) { $0.append($1) }
            }
            #expect(sent.map(\.seq).sorted() == Array(1...200))
            #expect(Set(sent.map(\.id)).count == 200)
            let stored = try await store.read { try $0.messages(in: conversation, after: 0, limit: 500) }
            #expect(stored.map(\.seq) == Array(1...200))
            #expect(Set(stored.map(\.id)) == Set(sent.map(\.id)))
            #expect(try await store.read { try $0.conversation(id: conversation) }?.lastSeq == 200)
        }
    }

    @Test(arguments: StoreBackend.available) func aReusedClientIDIsAConflictAndLeavesNoGap(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let first = try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "same")) }
            await #expect(throws: StoreError.conflict("client_id")) {
                try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "same", "again")) }
            }
            #expect(try await store.read { try $0.message(sender: ann, clientID: "same") } == first)

            // Caught inside the same write, which goes on and commits: still no gap.
            let (refused, next) = try await store.write { writer -> (Bool, Message) in
                var refused = false
                do {
                    _ = try writer.appendMessage(self.text(conversation, from: ann, clientID: "same"))
                } catch StoreError.conflict("client_id") {
                    refused = true
                }
                return (refused, try writer.appendMessage(self.text(conversation, from: ann, clientID: "other")))
            }
            #expect(refused)
            #expect(next.seq == 2)

            // Another sender may use the same client id; no client id never conflicts.
            let theirs = try await store.write { try $0.appendMessage(self.text(conversation, from: bob, clientID: "same")) }
            #expect(theirs.seq == 3)
            let anonymous = try await store.write { writer in
                try (0..<2).map { _ in try writer.appendMessage(self.text(conversation, from: ann, clientID: nil)) }
            }
            #expect(anonymous.map(\.seq) == [4, 5])
            #expect(try await store.read { try $0.messages(in: conversation, after: 0, limit: 10) }.map(\.seq) == Array(1...5))
        }
    }

    @Test(arguments: StoreBackend.available) func aFailedInsertCaughtByTheCallerLeavesNoGap(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, conversation) = try await chat(store)
            let message = try await store.write { writer -> Message in
                // An unknown sender: the foreign key refuses the row after the counter moved.
                #expect(throws: StoreError.self) {
                    try writer.appendMessage(self.text(conversation, from: UserID(9_999), clientID: "x"))
                }
                return try writer.appendMessage(self.text(conversation, from: ann, clientID: "y"))
            }
            #expect(message.seq == 1)
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.appendMessage(self.text(ConversationID(9_999), from: ann, clientID: "z")) }
            }
        }
    }

    @Test(arguments: StoreBackend.available) func aWriteThatFailsInTheSameBatchDoesNotUseUpASequenceNumber(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, conversation) = try await chat(store)
            let (gate, held) = try await WriterGate.hold(store)
            let before = store.commitCount
            let first = Task { try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "1")) } }
            try await eventually("the first append to queue up") { store.queuedWriteCount == 1 }
            let failing = Task {
                try await store.write { writer -> Message in
                    _ = try writer.appendMessage(self.text(conversation, from: bob, clientID: "doomed"))
                    throw TestError(reason: "changed my mind")
                }
            }
            try await eventually("the failing append to queue up") { store.queuedWriteCount == 2 }
            let last = Task { try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "3")) } }
            try await eventually("the last append to queue up") { store.queuedWriteCount == 3 }
            gate.open()
            try await held.value

            #expect(try await first.value.seq == 1)
            await #expect(throws: TestError(reason: "changed my mind")) { try await failing.value }
            #expect(try await last.value.seq == 2)
            // The held write's batch, then one batch for the three.
            #expect(store.commitCount - before == 2)
            try await store.read { reader throws in
                #expect(try reader.message(sender: bob, clientID: "doomed") == nil)
                #expect(try reader.conversation(id: conversation)?.lastSeq == 2)
                #expect(try reader.messages(in: conversation, before: nil, limit: 10).map(\.clientId) == ["1", "3"])
            }
        }
    }

    @Test(arguments: StoreBackend.available) func pagesStopAtTheirBoundariesAndComeOldestFirst(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, conversation) = try await chat(store)
            let other = try await insertDirectConversation(store, ann, try await insertUsers(store, ["cy"])[0].id)
            try await store.write { writer in
                for index in 1...10 {
                    _ = try writer.appendMessage(self.text(conversation, from: ann, clientID: "m\(index)", "\(index)"))
                    _ = try writer.appendMessage(self.text(other.id, from: ann, clientID: "o\(index)", "other \(index)"))
                }
            }
            try await store.read { reader throws in
                func before(_ seq: Int64?, _ limit: Int) throws -> [Int64] {
                    try reader.messages(in: conversation, before: seq, limit: limit).map(\.seq)
                }
                func after(_ seq: Int64, _ limit: Int) throws -> [Int64] {
                    try reader.messages(in: conversation, after: seq, limit: limit).map(\.seq)
                }
                #expect(try before(nil, 3) == [8, 9, 10])
                #expect(try before(nil, 50) == Array(1...10))
                #expect(try before(8, 3) == [5, 6, 7])
                #expect(try before(11, 2) == [9, 10])
                #expect(try before(3, 5) == [1, 2])
                #expect(try before(1, 5) == [])
                #expect(try before(nil, 0) == [])
                #expect(try after(0, 3) == [1, 2, 3])
                #expect(try after(7, 3) == [8, 9, 10])
                #expect(try after(8, 5) == [9, 10])
                #expect(try after(10, 5) == [])
                #expect(try after(0, 0) == [])
                #expect(try after(0, -1) == [])
                #expect(try reader.messages(in: conversation, before: nil, limit: 10).allSatisfy { $0.conversationId == conversation })
                #expect(try reader.messages(in: ConversationID(9_999), before: nil, limit: 10).isEmpty)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func lastActivityFollowsNewMessagesButNeverMovesBack(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, _, conversation) = try await chat(store)
            _ = try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "a", at: 500)) }
            #expect(try await store.read { try $0.conversation(id: conversation) }?.lastActivityAt == 500)
            // The clock stepped back: the message keeps its own time, the conversation its place.
            let late = try await store.write { try $0.appendMessage(self.text(conversation, from: ann, clientID: "b", at: 400)) }
            #expect(late.createdAt == 400)
            #expect(try await store.read { try $0.conversation(id: conversation) }?.lastActivityAt == 500)
        }
    }
}
