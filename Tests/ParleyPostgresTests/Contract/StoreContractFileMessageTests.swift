import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// `file` messages (schema version 18 on SQLite, 17 on PostgreSQL): stored, read back whole,
/// found by their caption, and a file record of any type beside the images.
@Suite struct StoreContractFileMessageTests {
    @Test(arguments: StoreBackend.available) func aFileMessageRoundTripsWithItsCaption(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let conversation = try await insertDirectConversation(store, people[0].id, people[1].id).id
            let file = FileAttachment(mediaId: "f1", url: "/v1/media/f1", name: "报告 \"v2\".pdf", size: 12_345, type: "application/pdf")
            var new = NewMessage(conversationID: conversation, sender: people[0].id, clientID: "f-1", kind: .file,
                                 text: "quarterly numbers", createdAt: 10)
            new.file = file
            let message = new
            let sent = try await store.write { writer in
                for user in people.map(\.id) {
                    try writer.saveMember(StoredMember(conversationID: conversation, userID: user, role: .member, joinedAt: 1, readSeq: 0))
                }
                try writer.insertMedia(StoredMedia(id: "f1", ownerID: people[0].id, type: .file(mimeType: "application/pdf"), width: 0, height: 0,
                                                   size: 12_345, createdAt: 5))
                return try writer.appendMessage(message)
            }
            #expect(sent.kind == .file && sent.file == file && sent.text == "quarterly numbers")
            try await store.read { reader throws in
                #expect(try reader.message(in: conversation, seq: sent.seq) == sent)
                let media = try #require(try reader.media(id: "f1"))
                #expect(media.mimeType == "application/pdf" && media.imageType == nil && media.fileExtension == "pdf")
                let found = try reader.searchMessages(MessageSearchQuery(searcher: people[1].id, conversation: conversation, terms: ["quarterly"], limit: 10))
                #expect(found.map(\.id) == [sent.id])
            }
        }
    }
}
