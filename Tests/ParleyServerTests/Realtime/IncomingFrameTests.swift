import Foundation
import ParleyProtocol
import Testing
@testable import ParleyServer

/// A frame read once: id and op for every operation, and the parameters of `message.send`
/// in the same pass, with the errors `OperationRequest.parameters` gives.
@Suite struct IncomingFrameTests {
    private func frame(_ json: String) throws -> IncomingFrame {
        try JSONDecoder().decode(IncomingFrame.self, from: Data(json.utf8))
    }

    private func failure(_ json: String) throws -> ProtocolError? {
        guard case .failure(let error) = try #require(try frame(json).parameters) else { return nil }
        return error
    }

    @Test func aSendsParametersComeWithTheFrame() throws {
        let decoded = try frame(#"{"id":7,"op":"message.send","data":{"conversationId":"42","clientId":"c-1","kind":"text","text":"hi \"there\""}}"#)
        #expect(decoded.id == .number(7))
        #expect(decoded.op == "message.send")
        let parameters = try #require(try decoded.parameters?.get() as? SendParameters)
        #expect(parameters.conversationId == ConversationID(42))
        #expect(parameters.clientId == "c-1")
        #expect(parameters.kind == .text)
        #expect(parameters.text == "hi \"there\"")
        #expect(parameters.mediaId == nil)
    }

    @Test func otherOperationsLeaveTheirDataForLater() throws {
        let decoded = try frame(#"{"id":"r1","op":"message.history","data":{"conversationId":"42"}}"#)
        #expect(decoded.id == .string("r1"))
        #expect(decoded.op == "message.history")
        #expect(decoded.parameters == nil)
    }

    @Test func badParametersAreTheSameErrorsAsBefore() throws {
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
        #expect(notAnObject?.code == .invalidField && notAnObject?.field == nil && notAnObject?.message.contains("'data'") == true)
    }

    @Test func aFrameWithoutIdOrOpIsRefusedWhole() {
        #expect(throws: DecodingError.self) { try frame(#"{"op":"message.send","data":{}}"#) }
        #expect(throws: DecodingError.self) { try frame(#"{"id":1,"data":{}}"#) }
        #expect(throws: DecodingError.self) { try frame(#"[1]"#) }
    }
}
