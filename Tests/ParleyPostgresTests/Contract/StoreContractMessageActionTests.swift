import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// What message actions keep: a message's state rewritten in place, hidden messages per
/// user, pins per conversation, mentions counted after each read marker.
@Suite struct StoreContractMessageActionTests {
    /// Three users, a group of all three with read markers at 0, and one message of ann's.
    private func group(_ store: any Store) async throws -> (ann: UserID, bob: UserID, cy: UserID, group: ConversationID) {
        let people = try await insertUsers(store, ["ann", "bob", "cy"])
        let group = try await store.write { writer in
            let group = try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: people[0].id, createdAt: 1))
            for person in people {
                try writer.saveMember(StoredMember(conversationID: group.id, userID: person.id, role: person == people[0] ? .owner : .member,
                                                   joinedAt: 1, readSeq: 0))
            }
            return group.id
        }
        return (people[0].id, people[1].id, people[2].id, group)
    }

    @Test(arguments: StoreBackend.available) func aMessagesStateIsRewrittenInPlaceAndReadBack(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, cy, group) = try await group(store)
            let sent = try await store.write { writer in
                try writer.appendMessage(NewMessage(conversationID: group, sender: ann, clientID: "c1", kind: .text, text: "hi @bob",
                                                    createdAt: 10, replyTo: ReplyPreview(messageId: "77"), mentions: [bob], forwarded: true))
            }
            #expect(sent.replyTo?.messageId == "77" && sent.mentions == [bob] && sent.forwarded == true)
            var changed = sent
            changed.text = "hi @bob and @cy"
            changed.editedAt = 20
            changed.reactions = [Reaction(emoji: "👍", users: [bob, cy]), Reaction(emoji: "🎉", users: [ann])]
            try await store.write { [changed] writer in try writer.replaceMessage(changed) }
            let read = try await store.read { reader in try reader.message(in: group, seq: sent.seq) }
            // The reply keeps only the quoted id: its preview is made when read.
            #expect(read == changed)
            var recalled = changed
            recalled.text = nil
            recalled.reactions = nil
            recalled.recalled = RecallMark(by: ann, at: 30)
            try await store.write { [recalled] writer in try writer.replaceMessage(recalled) }
            #expect(try await store.read { reader in try reader.message(id: Int64(sent.id) ?? 0) } == recalled)
        }
    }

    @Test(arguments: StoreBackend.available) func hiddenMessagesArePerUser(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, _, group) = try await group(store)
            let ids = try await store.write { writer in
                try (1...3).map { index in
                    Int64(try writer.appendMessage(NewMessage(conversationID: group, sender: ann, clientID: "c\(index)", kind: .text,
                                                              text: "m\(index)", createdAt: 10)).id) ?? 0
                }
            }
            try await store.write { writer in
                try writer.hideMessage(ids[1], in: group, for: bob, at: 40)
                try writer.hideMessage(ids[1], in: group, for: bob, at: 41)
            }
            try await store.read { reader throws in
                #expect(try reader.hiddenMessageIDs(of: bob, in: group, among: ids) == [ids[1]])
                #expect(try reader.hiddenMessageIDs(of: bob, in: group, among: [ids[0], ids[2]]) == [])
                #expect(try reader.hiddenMessageIDs(of: ann, in: group, among: ids) == [])
            }
        }
    }

    @Test(arguments: StoreBackend.available) func pinsAreListedNewestFirstAndOnce(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, _, group) = try await group(store)
            let outcomes = try await store.write { writer in
                [try writer.insertPin(StoredPin(conversationID: group, messageID: 5, pinnedBy: ann, pinnedAt: 100)),
                 try writer.insertPin(StoredPin(conversationID: group, messageID: 6, pinnedBy: bob, pinnedAt: 200)),
                 try writer.insertPin(StoredPin(conversationID: group, messageID: 5, pinnedBy: bob, pinnedAt: 300))]
            }
            #expect(outcomes == [true, true, false])
            #expect(try await store.read { try $0.pins(in: group) } == [
                StoredPin(conversationID: group, messageID: 6, pinnedBy: bob, pinnedAt: 200),
                StoredPin(conversationID: group, messageID: 5, pinnedBy: ann, pinnedAt: 100)])
            let removed = try await store.write { writer in
                [try writer.deletePin(of: 6, in: group), try writer.deletePin(of: 6, in: group)]
            }
            #expect(removed == [true, false])
            #expect(try await store.read { try $0.pins(in: group) }.map(\.messageID) == [5])
        }
    }

    @Test(arguments: StoreBackend.available) func mentionsAreCountedAfterTheReadMarkerButNotTheSenders(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let (ann, bob, cy, group) = try await group(store)
            try await store.write { writer in
                try writer.insertMentions(in: group, seq: 1, sender: ann, users: [bob])
                try writer.insertMentions(in: group, seq: 2, sender: ann, users: [nil])
                try writer.insertMentions(in: group, seq: 3, sender: bob, users: [cy, ann])
            }
            try await store.read { reader throws in
                #expect(try reader.mentionCounts(for: bob) == [group: 2])
                #expect(try reader.mentionCounts(for: cy) == [group: 2])
                #expect(try reader.mentionCounts(for: ann) == [group: 1], "their own @all is not counted")
            }
            try await store.write { writer in
                // The read marker moves past seq 2 only once the messages exist.
                for index in 1...3 {
                    _ = try writer.appendMessage(NewMessage(conversationID: group, sender: ann, clientID: "m\(index)", kind: .text,
                                                            text: "x", createdAt: 10))
                }
                _ = try writer.markRead(conversation: group, user: bob, upTo: 2)
                try writer.deleteMentions(in: group, seq: 3)
            }
            try await store.read { reader throws in
                #expect(try reader.mentionCounts(for: bob) == [:])
                #expect(try reader.mentionCounts(for: cy) == [group: 1])
            }
        }
    }
}
