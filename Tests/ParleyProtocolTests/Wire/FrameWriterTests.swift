import Foundation
import Testing
@testable import ParleyProtocol

/// The hand-written writers (a text message, `message.send`'s parameters, the frames) say the same as Foundation's `JSONEncoder`:
/// both outputs decode to equal values and equal JSON objects, for texts that need escaping.
@Suite struct FrameWriterTests {
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
        try WireJSON.encoder().encode(message)
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
        JSONWriter.appendDecimal(value, to: &out)
        #expect(out == [UInt8(ascii: "x")] + Array(String(value).utf8))
    }

    /// Frames around encoded data say what the same frames around values say.
    @Test func framesAroundEncodedDataMatchTheOthers() throws {
        let message = Self.message("hi \"there\" \\ 😀")
        let json = try #require(WireJSON.encode(message))
        for id: RequestID in [.number(-3), .string("r\"1\n")] {
            #expect(FrameWriter.success(id, dataJSON: json) == FrameWriter.success(id, message))
        }
        #expect(FrameWriter.event(name: "message.new", dataJSON: json) == FrameWriter.event(.messageNew(message)))
    }

    @Test func framesCarryTheMessageAndTheID() throws {
        let message = Self.message("hi \"there\"")
        let response = FrameWriter.success(.string("r\"1"), message)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response)) as? [String: Any])
        #expect(object["id"] as? String == "r\"1")
        #expect(object["ok"] as? Bool == true)
        let data = try JSONSerialization.data(withJSONObject: try #require(object["data"]))
        #expect(try JSONDecoder().decode(Message.self, from: data) == message)
        let numbered = try #require(try JSONSerialization.jsonObject(with: Data(FrameWriter.success(.number(77), message)))
            as? [String: Any])
        #expect((numbered["id"] as? NSNumber)?.int64Value == 77)
        let event = try #require(FrameWriter.event(.messageNew(message)))
        let eventObject = try #require(try JSONSerialization.jsonObject(with: Data(event)) as? [String: Any])
        #expect(eventObject["event"] as? String == "message.new")
    }

    /// `message.send`'s parameters written by hand say what `JSONEncoder` says.
    @Test(arguments: texts)
    func sendParametersAreWrittenAsJSONEncoderWritesThem(_ text: String) throws {
        for parameters in [SendParameters(conversationId: ConversationID(42), clientId: "c \"\(text)\"", kind: .text, text: text),
                           SendParameters(conversationId: ConversationID(7), clientId: "x", kind: .image, mediaId: "m/1"),
                           SendParameters(conversationId: ConversationID(8), clientId: "r", kind: .text, text: text, replyTo: "12\"3",
                                          mentions: [UserID(4), UserID(9_007_199_254_740_993)], mentionsAll: false),
                           SendParameters(conversationId: ConversationID(8), clientId: "r", kind: .text, text: text, mentions: [],
                                          mentionsAll: true),
                           SendParameters(conversationId: ConversationID(9), clientId: "v", kind: .voice, mediaId: "rec",
                                          durationMs: 12_345, waveform: (0..<64).map { $0 % 32 })] {
            let fast = try JSONSerialization.jsonObject(with: Data(parameters.json())) as? NSDictionary
            let foundation = try JSONSerialization.jsonObject(with: WireJSON.encoder().encode(parameters)) as? NSDictionary
            #expect(fast != nil && fast == foundation)
        }
    }

    /// A receipt's state written by hand says what `JSONEncoder` says, with and without its
    /// markers.
    @Test func receiptStatesAreWrittenAsJSONEncoderWritesThem() throws {
        for state in [ReceiptState(conversationId: ConversationID(42), userId: UserID(9_007_199_254_740_993), deliveredSeq: 7),
                      ReceiptState(conversationId: ConversationID(1), userId: UserID(2), readSeq: 0, deliveredSeq: Int64.max),
                      ReceiptState(conversationId: ConversationID(3), userId: UserID(4), readSeq: 12),
                      ReceiptState(conversationId: ConversationID(5), userId: UserID(6))] {
            let fast = try JSONSerialization.jsonObject(with: Data(state.json())) as? NSDictionary
            let foundation = try JSONSerialization.jsonObject(with: WireJSON.encoder().encode(state)) as? NSDictionary
            #expect(fast != nil && fast == foundation)
            #expect(try JSONDecoder().decode(ReceiptState.self, from: Data(state.json())) == state)
            #expect(ServerEvent.conversationReceipt(state).dataJSON() == state.json())
        }
    }

    /// The frames appended to a buffer in use are the frames made alone, after what it held.
    @Test func appendedFramesAreTheFramesMadeAlone() throws {
        let json = try #require(WireJSON.encode(Self.message("hi")))
        let error = ProtocolError(.invalidField, "a \"text\" needs text", field: "text")
        for id: RequestID? in [.number(5), .string("r\"2"), nil] {
            var out: [UInt8] = Array("prefix".utf8)
            FrameWriter.appendSuccess(id, dataJSON: json, to: &out)
            #expect(out == Array("prefix".utf8) + FrameWriter.success(id, dataJSON: json))
            // The error object comes from JSONEncoder, whose key order may differ between
            // two calls: compared as objects.
            out = []
            FrameWriter.appendFailure(id, error, to: &out)
            let appended = try JSONSerialization.jsonObject(with: Data(out)) as? NSDictionary
            let alone = try JSONSerialization.jsonObject(with: Data(FrameWriter.failure(id, error))) as? NSDictionary
            #expect(appended != nil && appended == alone)
        }
        var event: [UInt8] = [0x7B]
        FrameWriter.appendEvent(name: "message.new", dataJSON: json, to: &event)
        #expect(event == [0x7B] + FrameWriter.event(name: "message.new", dataJSON: json))
    }

    /// A request written for an operation reads back as the same operation and parameters.
    @Test func requestsRoundTripThroughTheReader() throws {
        let parameters = SendParameters(conversationId: ConversationID(5), clientId: "c", kind: .text, text: "hé \"x\"")
        let frame = try #require(FrameWriter.request(Op.MessageSend.self, id: .number(12), parameters))
        let envelope = try FrameReader.request(frame)
        #expect(envelope.id == .number(12) && envelope.op == Op.MessageSend.name)
        let read = try FrameReader.parameters(SendParameters.self, in: frame, envelope)
        #expect(read.text == parameters.text && read.clientId == parameters.clientId && read.conversationId == parameters.conversationId)
        // A voice send (keys the hand-written reader leaves to JSONDecoder) reads back whole.
        let voice = SendParameters(conversationId: ConversationID(5), clientId: "v", kind: .voice, mediaId: "rec", durationMs: 900,
                                   waveform: Array(repeating: 31, count: 64))
        let voiceFrame = try #require(FrameWriter.request(Op.MessageSend.self, id: .number(13), voice))
        let voiceRead = try FrameReader.parameters(SendParameters.self, in: voiceFrame, try FrameReader.request(voiceFrame))
        #expect(voiceRead.kind == .voice && voiceRead.durationMs == 900 && voiceRead.waveform == voice.waveform && voiceRead.mediaId == "rec")
    }
}
