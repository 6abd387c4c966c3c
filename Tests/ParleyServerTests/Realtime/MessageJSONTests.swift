import Foundation
import ParleyProtocol
import Testing
@testable import ParleyServer

/// The hand-written encoder of text messages says the same as Foundation's `JSONEncoder`:
/// both outputs decode to equal values and equal JSON objects, for texts that need escaping.
@Suite struct MessageJSONTests {
    static let texts: [String] = [
        "hello",
        "",
        "say \"hi\"",
        #"back\slash \\ and \"both\""#,
        "line\nbreak\r\ttab",
        "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}",
        "a/b </script>",
        "emoji 😀👩‍👩‍👧 flags 🇫🇷",
        "中文 日本語 한국어",
        "combining e\u{301} and \u{2028}\u{2029} separators",
    ]

    static func message(_ text: String?, sender: UserID? = UserID(7), clientId: String? = "c-1") -> Message {
        Message(id: "123456789012", conversationId: ConversationID(42), seq: 9_007_199_254_740_993, sender: sender,
                clientId: clientId, kind: .text, text: text, createdAt: 1_764_000_000_123)
    }

    static func foundationJSON(_ message: Message) throws -> Data {
        try JSONCoding.encoder().encode(message)
    }

    @Test(arguments: texts)
    func decodesToTheSameMessage(_ text: String) throws {
        let message = Self.message(text, clientId: "client \"\(text)\"")
        let fast = try #require(MessageJSON.encode(message))
        let decoded = try JSONDecoder().decode(Message.self, from: Data(fast.utf8))
        #expect(decoded == message)
        let fastObject = try JSONSerialization.jsonObject(with: Data(fast.utf8)) as? NSDictionary
        let foundationObject = try JSONSerialization.jsonObject(with: Self.foundationJSON(message)) as? NSDictionary
        #expect(fastObject != nil)
        #expect(fastObject == foundationObject)
    }

    @Test func leavesOutAbsentFieldsLikeCodable() throws {
        let message = Self.message("x", sender: nil, clientId: nil)
        let fast = try #require(MessageJSON.encode(message))
        #expect(!fast.contains("sender"))
        #expect(!fast.contains("clientId"))
        let fastObject = try JSONSerialization.jsonObject(with: Data(fast.utf8)) as? NSDictionary
        let foundationObject = try JSONSerialization.jsonObject(with: Self.foundationJSON(message)) as? NSDictionary
        #expect(fastObject == foundationObject)
    }

    @Test func leavesImagesAndNoticesToCodable() {
        var image = Self.message(nil)
        image.kind = .image
        image.image = ImageAttachment(mediaId: "m", url: "/media/m", width: 1, height: 2)
        #expect(MessageJSON.encode(image) == nil)
        var notice = Self.message(nil, sender: nil, clientId: nil)
        notice.kind = .system
        notice.system = SystemNotice(type: .friendAdded, actor: UserID(1), target: UserID(2))
        #expect(MessageJSON.encode(notice) == nil)
    }

    @Test(arguments: [0, 7, -1, 10, -10, 1_764_000_000_123, Int64.max, Int64.min])
    func decimalsAreWrittenLikeDescription(_ value: Int64) {
        var out: [UInt8] = [UInt8(ascii: "x")]
        MessageJSON.appendDecimal(value, to: &out)
        #expect(out == [UInt8(ascii: "x")] + Array(String(value).utf8))
    }

    /// The byte-level frames (the hot path's) say exactly what the string-level ones say.
    @Test func framesAroundEncodedDataMatchTheOthers() throws {
        let message = Self.message("hi \"there\" \\ 😀")
        let json = try #require(OperationCoding.json(message))
        for id: RequestID in [.number(-3), .string("r\"1\n")] {
            #expect(OperationCoding.success(id, json: json) == Array(OperationCoding.success(id, message).utf8))
        }
        #expect(OperationCoding.event("message.new", json: json) == Array(try #require(OperationCoding.event("message.new", message)).utf8))
    }

    @Test func framesCarryTheMessageAndTheID() throws {
        let message = Self.message("hi \"there\"")
        let response = OperationCoding.success(.string("r\"1"), message)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "r\"1")
        #expect(object["ok"] as? Bool == true)
        let data = try JSONSerialization.data(withJSONObject: try #require(object["data"]))
        #expect(try JSONDecoder().decode(Message.self, from: data) == message)
        let numbered = try #require(try JSONSerialization.jsonObject(with: Data(OperationCoding.success(.number(77), message).utf8))
            as? [String: Any])
        #expect((numbered["id"] as? NSNumber)?.int64Value == 77)
        let event = try #require(OperationCoding.event("message.new", message))
        let eventObject = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
        #expect(eventObject["event"] as? String == "message.new")
    }
}
