import Foundation
@testable import ParleyCore
import ParleyProtocol
import Testing

/// The bounds must never be below what the server's encoder really writes, or an answer kept
/// "under budget" could still pass the queue bound that cuts a connection off.
@Suite struct EncodedSizeBoundTests {
    static let texts: [String] = [
        "",
        "plain words",
        String(repeating: "\"", count: 4000),
        String(repeating: "\\", count: 4000),
        String(repeating: "/", count: 4000),
        String(repeating: "\u{1}", count: 4000),
        "line\nbreak\ttab\r\u{8}\u{c}",
        String(repeating: "你好", count: 2000),
        String(repeating: "😀", count: 1000),
        "<script>alert('x')</script> & \u{2028}\u{2029}",
    ]

    @Test(arguments: texts) func aMessageIsNeverLargerThanItsBound(_ text: String) throws {
        let message = Message(id: String(repeating: "m", count: 26), conversationId: ConversationID(rawValue: Int64.max),
                              seq: Int64.max, sender: UserID(rawValue: Int64.max), clientId: "client/\"id\"\n", kind: .text,
                              text: text, createdAt: Int64.max)
        let encoded = try JSONEncoder().encode(message)
        #expect(encoded.count <= EncodedSizeBound.message(message))
    }

    @Test func imagesAndNoticesAreBoundedToo() throws {
        let image = Message(id: "m1", conversationId: ConversationID(rawValue: 1), seq: 1, sender: UserID(rawValue: 2), clientId: nil,
                            kind: .image, image: ImageAttachment(mediaId: "abc/\"def\"", url: "/v1/media/abc/\"def\"",
                                                                  width: Int.max, height: Int.max),
                            createdAt: 1)
        #expect(try JSONEncoder().encode(image).count <= EncodedSizeBound.message(image))
        let notice = Message(id: "m2", conversationId: ConversationID(rawValue: 1), seq: 2, sender: nil, clientId: nil, kind: .system,
                             system: SystemNotice(type: .infoChanged, actor: UserID(rawValue: Int64.max), target: UserID(rawValue: Int64.max),
                                                  fields: ["name", "avatar", "description"], name: String(repeating: "\"/", count: 16)),
                             createdAt: 1)
        #expect(try JSONEncoder().encode(notice).count <= EncodedSizeBound.message(notice))
    }

    @Test func newestFittingKeepsTheNewestAndAlwaysOne() {
        let messages = (1...10).map { seq in
            Message(id: "m\(seq)", conversationId: ConversationID(rawValue: 1), seq: Int64(seq), sender: UserID(rawValue: 1),
                    clientId: nil, kind: .text, text: String(repeating: "a", count: 1000), createdAt: 1)
        }
        let each = EncodedSizeBound.message(messages[0])
        var used = 0
        let three = ConversationService.newestFitting(messages, budget: 3 * each + each / 2, used: &used)
        #expect(three.map(\.seq) == [8, 9, 10])
        #expect(used == messages.suffix(3).reduce(0) { $0 + EncodedSizeBound.message($1) })
        used = 0
        #expect(ConversationService.newestFitting(messages, budget: 1, used: &used).map(\.seq) == [10])
        used = 5
        #expect(ConversationService.newestFitting(messages, budget: 1, used: &used).isEmpty)
    }
}
