import Foundation
import ParleyProtocol
import Testing
@testable import ParleyServer

/// The hand-written reader of `message.send` frames gives what `JSONDecoder` gives, and
/// leaves every frame it does not fully understand to `JSONDecoder`.
@Suite struct SendFrameReaderTests {
    /// Frames both readers must read alike.
    static let plain: [String] = [
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c-1","kind":"text","text":"hi"}}"#,
        #"{"data":{"text":"hi","kind":"text","clientId":"c-1","conversationId":"42"},"op":"message.send","id":"r-9"}"#,
        " {\n\t\"id\" : -12 ,\r\n \"op\":\"message.send\", \"data\" : { \"conversationId\" : \"9223372036854775807\", \"clientId\":\"x\", \"kind\":\"image\", \"mediaId\":\"m1\", \"text\":null } } ",
        #"{"id":0,"op":"message.send","data":{"conversationId":"1","clientId":"c","kind":"text","text":"say \"hi\" \\ \/ \b\f\n\r\t \u00e9 \u4e2d \ud83d\ude00 \u0000 end"}}"#,
        #"{"id":9223372036854775807,"op":"message.send","data":{"conversationId":"1","clientId":"🧑‍💻 中文","kind":"text","text":"emoji 😀 and é raw"}}"#,
        #"{"id":-9223372036854775808,"op":"message.send","data":{"conversationId":"1","clientId":"c","kind":"system","mediaId":null}}"#,
        #"{"id":"","op":"message.send","data":{"conversationId":"1","clientId":"","kind":"text","text":""}}"#,
        // Conversation ids as `Int64(_:)` reads them: a plus sign and leading zeros are fine.
        #"{"id":1,"op":"message.send","data":{"conversationId":"+0042","clientId":"c","kind":"text","text":"x"}}"#,
    ]

    /// Frames the fast reader leaves to `JSONDecoder` (which may accept or refuse them).
    static let leftAlone: [String] = [
        #"{"id":7,"op":"message.history","data":{"conversationId":"42"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","extra":1}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"},"more":true}"#,
        #"{"id":7,"id":8,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":42,"clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"video"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"x","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"0","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"-5","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"+","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"9223372036854775808","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":null}"#,
        #"{"id":7,"op":"message.send"}"#,
        #"{"id":7.5,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}}"#,
        #"{"id":1e3,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}}"#,
        #"{"id":07,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}}"#,
        #"{"id":9223372036854775808,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"\ud83d"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"\x"}}"#,
        "{\"id\":7,\"op\":\"message.send\",\"data\":{\"conversationId\":\"42\",\"clientId\":\"c\",\"kind\":\"text\",\"text\":\"raw\u{1}control\"}}",
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"unterminated}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"}} trailing"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text"},}"#,
        #"[1,2]"#,
        "",
        // Names are compared as written: an escape in a key, the op or the kind is left alone.
        #"{"\u0069d":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
        #"{"id":7,"op":"message\u002esend","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"t\u0065xt","text":"hi"}}"#,
        #"{"id":7,"op":"message.sen","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"","text":"hi"}}"#,
    ]

    private func jsonDecoder(_ json: String) throws -> (RequestID, String, SendParameters) {
        let frame = try JSONDecoder().decode(IncomingFrame.self, from: Data(json.utf8))
        let parameters = try #require(try frame.parameters?.get() as? SendParameters)
        return (frame.id, frame.op, parameters)
    }

    @Test(arguments: plain) func readsWhatJSONDecoderReads(_ json: String) throws {
        let fast = try #require(SendFrameReader.read(Data(json.utf8)))
        let fastParameters = try #require(try fast.parameters?.get() as? SendParameters)
        let (id, op, parameters) = try jsonDecoder(json)
        #expect(fast.id == id)
        #expect(fast.op == op)
        #expect(fastParameters.conversationId == parameters.conversationId)
        #expect(fastParameters.clientId == parameters.clientId)
        #expect(fastParameters.kind == parameters.kind)
        #expect(fastParameters.text == parameters.text)
        #expect(fastParameters.mediaId == parameters.mediaId)
    }

    @Test(arguments: leftAlone) func leavesEverythingElseToJSONDecoder(_ json: String) {
        #expect(SendFrameReader.read(Data(json.utf8)) == nil)
    }

    @Test func escapesComeOutAsTheCharactersTheyStandFor() throws {
        let frame = try #require(SendFrameReader.read(Data(Self.plain[3].utf8)))
        let parameters = try #require(try frame.parameters?.get() as? SendParameters)
        #expect(parameters.text == "say \"hi\" \\ / \u{8}\u{c}\n\r\t é 中 😀 \u{0} end")
    }
}
