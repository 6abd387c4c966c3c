import Foundation
import Testing
@testable import ParleyProtocol

/// The hand-written reader of frames gives what `JSONDecoder` gives, and leaves every frame it
/// does not fully understand to `JSONDecoder`; `FrameReader` as a whole gives the same values
/// and errors either way.
@Suite struct FrameReaderTests {
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
        // The op is any string, escapes resolved (an unknown one is the table's business).
        #"{"id":7,"op":"message\u002esend","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
        // A reply and mentions (message actions).
        #"{"id":8,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi","replyTo":"991","mentions":["3", "+04"],"mentionsAll":true}}"#,
        #"{"id":8,"op":"message.send","data":{"mentions":[],"mentionsAll":false,"replyTo":null,"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
    ]

    /// Frames the fast path leaves to `JSONDecoder` (which may accept or refuse them).
    static let leftAlone: [String] = [
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
        // Names are compared as written: an escape in a key or the kind is left alone.
        #"{"\u0069d":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","text":"hi"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"t\u0065xt","text":"hi"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"","text":"hi"}}"#,
        // Mentions other than an array of id strings, and a kind of `mentionsAll` other than a boolean.
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentions":[3]}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentions":["0"]}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentions":["3",]}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentions":"3"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentionsAll":"yes"}}"#,
        #"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","replyTo":5}}"#,
    ]

    /// The fast path alone: the envelope by `JSONScanner`, then the parameters by hand.
    private func fast(_ json: String) -> (RequestEnvelope, SendParameters)? {
        let frame = Data(json.utf8)
        return frame.withUnsafeBytes { raw -> (RequestEnvelope, SendParameters)? in
            guard let envelope = FrameReader.scanRequest(raw), let range = envelope.data else { return nil }
            var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[range]))
            guard let parameters = SendParameters(scanning: &scanner), scanner.atEnd() else { return nil }
            return (envelope, parameters)
        }
    }

    /// `JSONDecoder` alone, as the protocol's types decode.
    private struct Whole: Decodable {
        let id: RequestID
        let op: String
        let data: SendParameters
    }

    @Test(arguments: plain) func readsWhatJSONDecoderReads(_ json: String) throws {
        let (envelope, parameters) = try #require(fast(json))
        let reference = try JSONDecoder().decode(Whole.self, from: Data(json.utf8))
        #expect(envelope.id == reference.id)
        #expect(envelope.op == reference.op)
        #expect(parameters.conversationId == reference.data.conversationId)
        #expect(parameters.clientId == reference.data.clientId)
        #expect(parameters.kind == reference.data.kind)
        #expect(parameters.text == reference.data.text)
        #expect(parameters.mediaId == reference.data.mediaId)
        #expect(parameters.replyTo == reference.data.replyTo)
        #expect(parameters.mentions == reference.data.mentions)
        #expect(parameters.mentionsAll == reference.data.mentionsAll)
    }

    @Test(arguments: leftAlone) func leavesEverythingElseToJSONDecoder(_ json: String) {
        #expect(fast(json) == nil)
    }

    @Test func escapesComeOutAsTheCharactersTheyStandFor() throws {
        let (_, parameters) = try #require(fast(Self.plain[3]))
        #expect(parameters.text == "say \"hi\" \\ / \u{8}\u{c}\n\r\t é 中 😀 \u{0} end")
    }

    /// Whichever path reads a frame, the answer is the same: values, or errors naming the field.
    @Test(arguments: plain + leftAlone) func bothPathsAgree(_ json: String) {
        let frame = Array(json.utf8)
        let viaReader: Result<SendParameters, ProtocolError> = Result { () throws(ProtocolError) in
            let envelope = try FrameReader.request(frame)
            return try FrameReader.parameters(SendParameters.self, in: frame, envelope)
        }
        let viaDecoder = Result { try JSONDecoder().decode(Whole.self, from: Data(frame)).data }
        switch (viaReader, viaDecoder) {
        case (.success(let a), .success(let b)):
            #expect(a.conversationId == b.conversationId && a.clientId == b.clientId && a.text == b.text && a.kind == b.kind
                    && a.replyTo == b.replyTo && a.mentions == b.mentions && a.mentionsAll == b.mentionsAll)
        case (.failure, .failure):
            break
        case (.failure(let error), .success):
            // Only frames without data read as {} differently: the protocol's rule.
            #expect(error.code == .missingField, "\(json): \(error)")
        case (.success, .failure):
            // JSONDecoder refuses a repeated key the scanner leaves to it; nothing else.
            Issue.record("the reader accepted what JSONDecoder refused: \(json)")
        }
    }

    /// An escape, a raw control character or the closing quote is found at every offset of a
    /// string, and skipped strings (the envelope's pass over `data`) are passed over alike.
    @Test func stringsAreReadAlikeWhereverTheirSpecialBytesFall() throws {
        for offset in 0...24 {
            let head = String(repeating: "a", count: offset)
            let tail = String(repeating: "z", count: 24 - offset)
            for middle in [#"\""#, #"\\"#, #"\n"#, #"\u4e2d"#, "", "é", "中"] {
                let json = #"{"id":1,"op":"message.send","data":{"conversationId":"1","clientId":"c","kind":"text","text":""#
                    + head + middle + tail + #""}}"#
                let (_, parameters) = try #require(fast(json), "\(middle) at \(offset)")
                #expect(parameters.text == (try JSONDecoder().decode(Whole.self, from: Data(json.utf8)).data.text))
            }
            let control = "{\"id\":1,\"op\":\"message.send\",\"data\":{\"conversationId\":\"1\",\"clientId\":\"c\",\"kind\":\"text\",\"text\":\""
                + head + "\u{1F}" + tail + "\"}}"
            #expect(fast(control) == nil, "a raw control character at \(offset)")
        }
    }

    /// `frame` with its `data` moved before `id` and `op` (frames of the shape
    /// `{"id":…,"op":…,"data":…}` only, without a trailing comma; nil for any other).
    private static func dataFirst(_ json: String) -> String? {
        guard json.hasPrefix(#"{"id":"#), json.hasSuffix("}"), let data = json.range(of: #","data":"#) else { return nil }
        let head = json[json.index(after: json.startIndex)..<data.lowerBound]
        let value = json[data.upperBound..<json.index(before: json.endIndex)]
        guard !value.hasSuffix(",") else { return nil }
        return #"{"data":"# + value + "," + head + "}"
    }

    /// The request read as the server reads it: the envelope, then the parameters.
    private static func read(_ json: String) -> Result<SendParameters, ProtocolError> {
        let frame = Array(json.utf8)
        return Result { () throws(ProtocolError) in
            try FrameReader.parameters(SendParameters.self, in: frame, try FrameReader.request(frame))
        }
    }

    /// With `op` before `data` the envelope's pass reads `message.send`'s parameters itself
    /// (one pass), and they are those the second pass reads; with `data` first it leaves them
    /// to the second pass.
    @Test(arguments: plain) func theEnvelopeReadsTheParametersWhenOpComesFirst(_ json: String) throws {
        let (envelope, twoPasses) = try #require(fast(json))
        let opFirst = try #require(json.range(of: #""op""#)).lowerBound < (try #require(json.range(of: #""data""#))).lowerBound
        #expect(envelope.parameters == (opFirst ? .send(twoPasses) : nil), "\(json)")
        #expect(try Self.read(json).get() == twoPasses)
        if let reordered = Self.dataFirst(json) {
            #expect(try FrameReader.request(Array(reordered.utf8)).parameters == nil)
            #expect(try Self.read(reordered).get() == twoPasses)
        }
    }

    /// Whatever the fast reader leaves alone is left alone in either key order, and answered
    /// alike: the same values, or the same error (status code, message and field).
    @Test(arguments: leftAlone) func bothKeyOrdersAnswerAlike(_ json: String) {
        let frame = Array(json.utf8)
        if let envelope = try? FrameReader.request(frame) {
            #expect(envelope.parameters == nil, "\(json)")
        }
        guard let reordered = Self.dataFirst(json) else { return }
        #expect(Self.read(json) == Self.read(reordered), "\(json) against \(reordered)")
    }

    /// Each error of `message.send`'s parameters, in both key orders.
    @Test func parameterErrorsAreTheSameInBothKeyOrders() throws {
        let cases: [(String, ErrorCode, String?)] = [
            (#"{"id":1,"op":"message.send","data":{"conversationId":"42","kind":"text"}}"#, .missingField, "clientId"),
            (#"{"id":1,"op":"message.send","data":{"conversationId":[],"clientId":"c","kind":"text"}}"#, .invalidField, "conversationId"),
            (#"{"id":1,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"video"}}"#, .invalidField, "kind"),
            (#"{"id":1,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"text","mentions":"3"}}"#, .invalidField, "mentions"),
            (#"{"id":1,"op":"message.send","data":"text"}"#, .invalidField, nil),
            (#"{"id":1,"op":"message.send","data":null}"#, .missingField, "conversationId"),
        ]
        for (json, code, field) in cases {
            let reordered = try #require(Self.dataFirst(json))
            for frame in [json, reordered] {
                guard case .failure(let error) = Self.read(frame) else {
                    Issue.record("accepted: \(frame)")
                    continue
                }
                #expect(error.code == code && error.field == field, "\(frame): \(error)")
            }
            #expect(Self.read(json) == Self.read(reordered))
        }
    }

    @Test func aSendsParametersAndOtherOperationsData() throws {
        let frame = Array(#"{"id":"r1","op":"message.history","data":{"conversationId":"42","before":7}}"#.utf8)
        let envelope = try FrameReader.request(frame)
        #expect(envelope.id == .string("r1") && envelope.op == "message.history")
        let history = try FrameReader.parameters(HistoryParameters.self, in: frame, envelope)
        #expect(history.conversationId == ConversationID(42) && history.before == 7)
    }

    @Test func badParametersNameTheirField() throws {
        func failure(_ json: String) throws -> ProtocolError? {
            let frame = Array(json.utf8)
            let envelope = try FrameReader.request(frame)
            do {
                _ = try FrameReader.parameters(SendParameters.self, in: frame, envelope)
                return nil
            } catch {
                return error
            }
        }
        let missing = try failure(#"{"id":1,"op":"message.send","data":{"conversationId":"42","kind":"text"}}"#)
        #expect(missing?.code == .missingField && missing?.field == "clientId")
        let wrongType = try failure(#"{"id":1,"op":"message.send","data":{"conversationId":[],"clientId":"c","kind":"text"}}"#)
        #expect(wrongType?.code == .invalidField && wrongType?.field == "conversationId")
        let badKind = try failure(#"{"id":1,"op":"message.send","data":{"conversationId":"42","clientId":"c","kind":"video"}}"#)
        #expect(badKind?.code == .invalidField && badKind?.field == "kind")
        // No data, or null data, counts as {}.
        for json in [#"{"id":1,"op":"message.send"}"#, #"{"id":1,"op":"message.send","data":null}"#] {
            let empty = try failure(json)
            #expect(empty?.code == .missingField && empty?.field == "conversationId")
        }
        let notAnObject = try failure(#"{"id":1,"op":"message.send","data":"text"}"#)
        #expect(notAnObject?.code == .invalidField && notAnObject?.field == nil)
    }

    @Test func aFrameWithoutIdOrOpIsRefusedWhole() {
        for json in [#"{"op":"message.send","data":{}}"#, #"{"id":1,"data":{}}"#, #"[1]"#, ""] {
            #expect(throws: ProtocolError.self, "\(json)") { try FrameReader.request(Array(json.utf8)) }
        }
    }

    /// Clients read responses and events the same way, by hand or by `JSONDecoder`.
    @Test func serverFramesAreReadAsResponsesOrEvents() throws {
        let ok = Data(#"{"id":5,"ok":true,"data":{"time":42}}"#.utf8)
        guard case .response(let id, .success(let range))? = FrameReader.serverFrame(ok) else { Issue.record("not a response"); return }
        #expect(id == .number(5))
        #expect(try FrameReader.data(Pong.self, in: ok, range) == Pong(time: 42))
        let refused = Data(#"{"id":"a","ok":false,"error":{"code":"not_found","message":"no"}}"#.utf8)
        guard case .response(.string("a")?, .failure(let error))? = FrameReader.serverFrame(refused) else { Issue.record("not a refusal"); return }
        #expect(error.code == .notFound)
        let event = Data(#"{"event":"presence","data":{"userId":"3","online":true,"at":9}}"#.utf8)
        guard case .event(let name, let eventRange)? = FrameReader.serverFrame(event) else { Issue.record("not an event"); return }
        #expect(try ServerEvent.decode(name: name, in: event, eventRange) == .presence(Presence(userId: UserID(3), online: true, at: 9)))
        // A key the scanner does not know sends the frame to JSONDecoder, with the same result.
        let odd = Data(#"{"event":"presence","extra":[1,{"a":"b"}],"data":{"userId":"3","online":false,"at":1}}"#.utf8)
        guard case .event(let oddName, let oddRange)? = FrameReader.serverFrame(odd) else { Issue.record("not an event"); return }
        #expect(try ServerEvent.decode(name: oddName, in: odd, oddRange) == .presence(Presence(userId: UserID(3), online: false, at: 1)))
        #expect(try ServerEvent.decode(name: "future.event", data: Data("{}".utf8)) == nil)
        #expect(FrameReader.serverFrame(Data("[]".utf8)) == nil)
    }

    /// Every event written by the server reads back as itself.
    /// An edit with every part of a message's action state.
    static let actionUpdate: MessageUpdate = {
        var message = Message(id: "9", conversationId: ConversationID(2), seq: 3, sender: UserID(1), clientId: "c", kind: .text,
                              text: "hi again", createdAt: 4)
        message.replyTo = ReplyPreview(messageId: "8", seq: 2, sender: UserID(5), kind: .text, excerpt: "earlier…")
        message.mentions = [UserID(5)]
        message.mentionsAll = true
        message.forwarded = true
        message.editedAt = 6
        message.reactions = [Reaction(emoji: "👍🏽", users: [UserID(5), UserID(1)])]
        let event = Message(id: "10", conversationId: ConversationID(2), seq: 4, sender: UserID(1), clientId: "e", kind: .system,
                            system: SystemNotice(type: .messageEdited, actor: UserID(1), messageId: "9"), createdAt: 6)
        return MessageUpdate(event: event, message: message)
    }()

    /// A message with action state is left to `JSONEncoder`, and reads back whole.
    @Test func aMessageWithActionStateRoundTrips() throws {
        #expect(MessageJSON.json(Self.actionUpdate.message) == nil)
        let json = try #require(WireJSON.encode(Self.actionUpdate.message))
        #expect(try JSONDecoder().decode(Message.self, from: Data(json)) == Self.actionUpdate.message)
    }

    @Test func everyEventRoundTrips() throws {
        let account = Account(profile: UserProfile(id: UserID(1), username: "mei", createdAt: 1), phone: nil)
        let events: [ServerEvent] = [
            .messageNew(Message(id: "9", conversationId: ConversationID(2), seq: 3, sender: UserID(1), clientId: "c",
                                kind: .text, text: "hi/there", createdAt: 4)),
            .presence(Presence(userId: UserID(3), online: true, at: 5)),
            .friendRemoved(UserReference(userId: UserID(4))),
            .meUpdated(account),
            .messageUpdated(Self.actionUpdate),
            .messageHidden(MessageReference(conversationId: ConversationID(2), messageId: "9")),
        ]
        for event in events {
            let frame = Data(try #require(FrameWriter.event(event)))
            guard case .event(let name, let range)? = FrameReader.serverFrame(frame) else { Issue.record("\(event)"); continue }
            #expect(try ServerEvent.decode(name: name, in: frame, range) == event)
        }
    }
}
