import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct StanzaErrorTests {
    @Test func coreErrorsMapOntoXMPPConditions() {
        let cases: [(ErrorCode, String, String)] = [
            (.notFound, "cancel", "item-not-found"), (.notFriends, "auth", "forbidden"), (.blocked, "cancel", "not-acceptable"),
            (.rateLimited, "wait", "resource-constraint"), (.invalidField, "modify", "bad-request"),
            (.alreadyFriends, "cancel", "conflict"), (.internalError, "wait", "internal-server-error"),
        ]
        for (code, type, condition) in cases {
            let error = StanzaError(ProtocolError(code, "because"))
            #expect(error.type == type && error.condition == condition && error.text == "because", "\(code)")
        }
    }

    @Test func theReplyGoesBackToTheSenderWithTheSameId() {
        let message = XMLElement("message", ["to": "bob@example.org", "from": "mei@example.org/x", "id": "m1", "type": "chat"],
                                 children: [XMLElement("body", [:], text: "hi")])
        let reply = StanzaError(ProtocolError(.notFriends, "you are not friends")).reply(to: message, from: "example.org")
        #expect(reply.serialized() == "<message type='error' id='m1' from='bob@example.org' to='mei@example.org/x'><error type='auth'><forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>you are not friends</text></error></message>")
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(Timestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: 31_536_000_123 + 3_723_000) == "1971-01-01T01:02:03.123Z")
    }
}
