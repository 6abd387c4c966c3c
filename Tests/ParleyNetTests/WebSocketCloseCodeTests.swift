import Testing
@testable import ParleyNet

@Suite struct WebSocketCloseCodeTests {
    @Test func namedCodesHaveTheirRFCValues() {
        let named: [(WebSocketCloseCode, UInt16)] = [
            (.normalClosure, 1000), (.goingAway, 1001), (.protocolError, 1002), (.unsupportedData, 1003),
            (.noStatusReceived, 1005), (.abnormalClosure, 1006), (.invalidPayloadData, 1007),
            (.policyViolation, 1008), (.messageTooBig, 1009), (.mandatoryExtension, 1010),
            (.internalError, 1011), (.tlsHandshakeFailure, 1015),
        ]
        for (code, value) in named { #expect(code.rawValue == value) }
        #expect(WebSocketCloseCode(rawValue: 4000) == WebSocketCloseCode(4000))
        #expect(WebSocketCloseCode.messageTooBig.description == "1009")
    }

    @Test func wireValidityFollowsRFC6455Section7_4() {
        let valid: [UInt16] = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]
        let invalid: [UInt16] = [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1999, 2000, 2999, 5000, 65535]
        for value in valid { #expect(WebSocketCloseCode(value).isValidOnWire, "\(value)") }
        for value in invalid { #expect(!WebSocketCloseCode(value).isValidOnWire, "\(value)") }
    }

    @Test func opcodesKnowWhichAreControlFrames() {
        #expect(WebSocketOpcode.allCases.filter(\.isControl) == [.close, .ping, .pong])
        #expect(WebSocketOpcode(rawValue: 0x3) == nil)
    }
}
