import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// Voice messages on both stores: a recording's record with its length, a `voice` message
/// with its attachment, and the listened marks rewritten with the message.
@Suite struct StoreContractVoiceTests {
    @Test(arguments: StoreBackend.available) func aRecordingKeepsItsTypeAndLength(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }.id
            let voice = StoredMedia(id: "v1", ownerID: mei, type: .audio(.webm), durationMs: 4_321, width: 0, height: 0, size: 900,
                                    createdAt: 5)
            let image = StoredMedia(id: "i1", ownerID: mei, type: .png, width: 3, height: 4, size: 50, createdAt: 6)
            try await store.write { writer in
                try writer.insertMedia(voice)
                try writer.insertMedia(image)
            }
            #expect(try await store.read { try $0.media(id: "v1") } == voice)
            #expect(try await store.read { try $0.media(id: "i1") }?.durationMs == nil)
            #expect(try await store.read { try $0.media(id: "v1") }?.info.type == "audio/webm")
        }
    }

    @Test(arguments: StoreBackend.available) func aVoiceMessageAndWhoListenedAreReadBack(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let group = try await store.write { writer in
                let group = try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: ann, createdAt: 1))
                for person in people {
                    try writer.saveMember(StoredMember(conversationID: group.id, userID: person.id,
                                                       role: person.id == ann ? .owner : .member, joinedAt: 1, readSeq: 0))
                }
                return group.id
            }
            let attachment = VoiceAttachment(mediaId: "v1", url: "/v1/media/v1", type: "audio/ogg", durationMs: 12_000,
                                             waveform: (0..<64).map { $0 % 32 })
            var new = NewMessage(conversationID: group, sender: ann, clientID: "c1", kind: .voice, createdAt: 10)
            new.voice = attachment
            let sent = try await store.write { [new] writer in try writer.appendMessage(new) }
            #expect(sent.kind == .voice && sent.voice == attachment && sent.text == nil)
            #expect(try await store.read { try $0.message(in: group, seq: sent.seq) } == sent)
            // Each first play adds its listener, in order; the rest of the message stays.
            var heard = sent
            heard.listenedBy = [cy]
            try await store.write { [heard] writer in try writer.replaceMessage(heard) }
            heard.listenedBy = [cy, bob]
            try await store.write { [heard] writer in try writer.replaceMessage(heard) }
            let read = try await store.read { try $0.message(in: group, seq: sent.seq) }
            #expect(read == heard && read?.listenedBy == [cy, bob] && read?.voice == attachment)
            // A voice message has no text, so search never finds it by its sender's words.
            #expect(read?.text == nil)
        }
    }
}
