import Foundation
import Testing
@testable import ParleyProtocol

/// The payloads written in place (`JSONCursor`, sizes counted first) are byte for byte what the
/// appending writer (`JSONWriter`'s `append…`) writes: the same keys in the same order, the
/// same escapes, and exactly the counted size.
@Suite struct JSONCursorTests {
    /// Every byte below 0x80 in a string (each escape the writer knows, and the plain ones),
    /// with the texts of the other writers' tests and a run longer than a word.
    static let strings: [String] = FrameWriterTests.texts + [
        String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self),
        String(repeating: "plain text, then \"a quote\" and \\ ", count: 40),
        "\u{1f}",
    ]

    /// `body` written through a cursor into exactly `count` bytes; fails if it wrote another size.
    static func written(count: Int, _ body: (inout JSONCursor) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var cursor = JSONCursor(buffer)
            body(&cursor)
            initialized = cursor.written(from: buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    @Test(arguments: strings)
    func stringsAreCountedAndEscapedAsAppended(_ string: String) {
        var appended: [UInt8] = []
        JSONWriter.appendString(string, to: &appended)
        #expect(JSONWriter.stringCount(string) == appended.count)
        #expect(Self.written(count: appended.count) { $0.string(string) } == appended)
    }

    @Test(arguments: [0, 7, 9, 10, -1, -9, -10, 99, 100, 1_764_000_000_123, Int64.max, Int64.min, Int64.min + 1])
    func decimalsAreCountedAndWrittenAsAppended(_ value: Int64) {
        var appended: [UInt8] = []
        JSONWriter.appendDecimal(value, to: &appended)
        #expect(appended == Array(String(value).utf8))
        #expect(JSONWriter.decimalCount(value) == appended.count)
        #expect(Self.written(count: appended.count) { $0.decimal(value) } == appended)
    }

    /// The wire's text message as the appending writer wrote it before it was written in
    /// place (the reference for the bytes on the wire).
    static func appended(_ message: Message) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        JSONWriter.appendString(message.id, to: &out)
        JSONWriter.appendLiteral(#","conversationId":""#, to: &out)
        JSONWriter.appendDecimal(message.conversationId.rawValue, to: &out)
        JSONWriter.appendLiteral(#"","seq":"#, to: &out)
        JSONWriter.appendDecimal(message.seq, to: &out)
        if let sender = message.sender {
            JSONWriter.appendLiteral(#","sender":""#, to: &out)
            JSONWriter.appendDecimal(sender.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let clientId = message.clientId {
            JSONWriter.appendLiteral(#","clientId":"#, to: &out)
            JSONWriter.appendString(clientId, to: &out)
        }
        JSONWriter.appendLiteral(#","kind":"#, to: &out)
        JSONWriter.appendString(message.kind.rawValue, to: &out)
        if let text = message.text {
            JSONWriter.appendLiteral(#","text":"#, to: &out)
            JSONWriter.appendString(text, to: &out)
        }
        JSONWriter.appendLiteral(#","createdAt":"#, to: &out)
        JSONWriter.appendDecimal(message.createdAt, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    @Test(arguments: strings)
    func textMessagesAreWrittenAsBefore(_ text: String) throws {
        for message in [FrameWriterTests.message(text, clientId: "client \"\(text)\""),
                        FrameWriterTests.message(text, sender: nil, clientId: nil),
                        FrameWriterTests.message(nil, sender: UserID(-5), clientId: text),
                        Message(id: text, conversationId: ConversationID(rawValue: Int64.min), seq: 0,
                                sender: UserID(rawValue: Int64.max), clientId: nil, kind: .text, text: text, createdAt: -1)] {
            let json = try #require(MessageJSON.json(message))
            #expect(json == Self.appended(message))
            #expect(ServerEvent.messageNew(message).dataJSON() == json)
            // The wire's ids are not negative (the decoder refuses them); the writer writes them all alike.
            if message.conversationId.rawValue >= 0, (message.sender?.rawValue ?? 0) >= 0 {
                #expect(try JSONDecoder().decode(Message.self, from: Data(json)) == message)
            }
        }
    }

    @Test func receiptStatesAreWrittenAsBefore() {
        for state in [ReceiptState(conversationId: ConversationID(42), userId: UserID(9_007_199_254_740_993), deliveredSeq: 7),
                      ReceiptState(conversationId: ConversationID(rawValue: -1), userId: UserID(2), readSeq: 0, deliveredSeq: Int64.max),
                      ReceiptState(conversationId: ConversationID(3), userId: UserID(4), readSeq: Int64.min),
                      ReceiptState(conversationId: ConversationID(5), userId: UserID(6))] {
            var out: [UInt8] = []
            JSONWriter.appendLiteral(#"{"conversationId":""#, to: &out)
            JSONWriter.appendDecimal(state.conversationId.rawValue, to: &out)
            JSONWriter.appendLiteral(#"","userId":""#, to: &out)
            JSONWriter.appendDecimal(state.userId.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
            if let readSeq = state.readSeq {
                JSONWriter.appendLiteral(#","readSeq":"#, to: &out)
                JSONWriter.appendDecimal(readSeq, to: &out)
            }
            if let deliveredSeq = state.deliveredSeq {
                JSONWriter.appendLiteral(#","deliveredSeq":"#, to: &out)
                JSONWriter.appendDecimal(deliveredSeq, to: &out)
            }
            out.append(UInt8(ascii: "}"))
            #expect(state.json() == out)
        }
    }

    /// Events and answers written in place around their data are the frames the appending
    /// writer makes, for every kind of request id.
    @Test func eventsAndAnswersInPlaceAreTheAppendedFrames() throws {
        let data = try #require(MessageJSON.json(FrameWriterTests.message("hi \"there\" \\ 😀")))
        for name in ["message.new", "conversation.receipt", "a \"name\"\n"] {
            let count = FrameWriter.eventCount(name: name, dataCount: data.count)
            #expect(Self.written(count: count) { FrameWriter.writeEvent(name: name, dataJSON: data, to: &$0) }
                == FrameWriter.event(name: name, dataJSON: data))
        }
        for id: RequestID? in [nil, .number(0), .number(-3), .number(Int64.max), .string(""), .string("r\"1\n\u{1}")] {
            let count = FrameWriter.successCount(id, dataCount: data.count)
            #expect(Self.written(count: count) { FrameWriter.writeSuccess(id, dataJSON: data, to: &$0) }
                == FrameWriter.success(id, dataJSON: data))
        }
    }
}
