import ParleyKit
import ParleyProtocol
import Testing

@Suite struct FileFormattingTests {
    @Test(arguments: [(0, "0 B"), (1023, "1023 B"), (1024, "1 KB"), (1536, "1.5 KB"), (10 * 1024 - 1, "10 KB"),
                      (1_258_291, "1.2 MB"), (3 * 1024 * 1024 + 40_000, "3 MB"), (150 * 1024 * 1024, "150 MB"),
                      (5 * 1024 * 1024 * 1024, "5 GB")])
    func sizes(bytes: Int, expected: String) {
        #expect(FileSizeText.text(bytes) == expected)
    }

    @Test func aFileMessageShowsItsNameAndSizeInBothLanguages() {
        var message = Message(id: "1", conversationId: ConversationID(1), seq: 1, sender: UserID(2), clientId: "c", kind: .file,
                              text: "minutes :)", createdAt: 0)
        message.file = FileAttachment(mediaId: "m", url: "/v1/media/m", name: "name.pdf", size: 1_258_291, type: "application/pdf")
        #expect(MessagePreview.text(for: message, language: .english) { _ in "" } == "[file name.pdf 1.2 MB] minutes 🙂")
        message.text = nil
        #expect(MessagePreview.text(for: message, language: .chinese) { _ in "" } == "[文件 name.pdf 1.2 MB]")
    }
}
