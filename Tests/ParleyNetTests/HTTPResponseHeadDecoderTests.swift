import Testing
@testable import ParleyNet

@Suite struct HTTPResponseHeadDecoderTests {
    private let handshake = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    private let frame: [UInt8] = [0x81, 0x02, 0x68, 0x69]

    @Test func switchingProtocolsHeadAndFramesAfterIt() {
        let decoder = HTTPResponseHeadDecoder()
        let result = decoder.feed(Array(handshake.utf8) + frame)
        guard case .head(let status, let headers, let leftover) = result else {
            Issue.record("expected a head, got \(result)")
            return
        }
        #expect(status == 101)
        #expect(headers[first: "sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(headers.count == 3)
        #expect(leftover == frame)
        #expect(decoder.feed(frame) == .failure(HTTPResponseHeadDecoder.finished))
    }

    @Test func byteAtATime() {
        let decoder = HTTPResponseHeadDecoder()
        let bytes = Array(handshake.utf8)
        for byte in bytes.dropLast() {
            #expect(decoder.feed([byte]) == .needMoreData)
        }
        let result = decoder.feed([bytes[bytes.count - 1]] + frame)
        #expect(result == .head(status: 101, headers: [
            "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ], leftover: frame))
    }

    @Test func aRefusalWithABodyGivesTheBodyAsLeftover() {
        let result = HTTPResponseHeadDecoder().feed(Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\nno".utf8))
        #expect(result == .head(status: 403, headers: ["Content-Length": "2"], leftover: Array("no".utf8)))
    }

    @Test func headAtTheByteLimitPassesAndOneMoreFails() {
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
        let size = head.utf8.count
        let ok = HTTPResponseHeadDecoder(limits: HTTPLimits(maxHeaderBytes: size)).feed(Array(head.utf8))
        guard case .head(101, _, []) = ok else {
            Issue.record("expected a head, got \(ok)")
            return
        }
        let short = HTTPResponseHeadDecoder(limits: HTTPLimits(maxHeaderBytes: size - 1))
        #expect(short.feed(Array(head.utf8)) == .failure(.headerTooLarge))
        let slow = HTTPResponseHeadDecoder(limits: HTTPLimits(maxHeaderBytes: size - 1))
        var last = HTTPResponseHeadDecoder.Result.needMoreData
        for byte in head.utf8 where last == .needMoreData {
            last = slow.feed([byte])
        }
        #expect(last == .failure(.headerTooLarge))
    }

    /// Found by fuzzing: the version was judged before the size, so a head both too long
    /// and of another version got 505 in one read but 431 byte by byte.
    @Test func aTooLongHeadIs431WhateverElseIsWrongAndHoweverItArrives() {
        let head = Array("HTTP/1.2 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
        let limits = HTTPLimits(maxHeaderBytes: head.count - 1)
        #expect(HTTPResponseHeadDecoder(limits: limits).feed(head) == .failure(.headerTooLarge))
        let slow = HTTPResponseHeadDecoder(limits: limits)
        var last = HTTPResponseHeadDecoder.Result.needMoreData
        for byte in head where last == .needMoreData {
            last = slow.feed([byte])
        }
        #expect(last == .failure(.headerTooLarge))
        #expect(HTTPResponseHeadDecoder(limits: HTTPLimits(maxHeaderBytes: head.count)).feed(head) == .failure(.versionNotSupported))
    }

    @Test func headerCountAtTheLimitPassesAndOneMoreFails() {
        func response(_ count: Int) -> [UInt8] {
            Array(("HTTP/1.1 200 OK\r\n" + (0..<count).map { "H\($0): v\r\n" }.joined() + "\r\n").utf8)
        }
        let limits = HTTPLimits(maxHeaderCount: 3)
        guard case .head(200, let headers, _) = HTTPResponseHeadDecoder(limits: limits).feed(response(3)) else {
            Issue.record("expected a head")
            return
        }
        #expect(headers.count == 3)
        #expect(HTTPResponseHeadDecoder(limits: limits).feed(response(4)) == .failure(.tooManyHeaders))
    }

    @Test func malformedAndWrongVersionFail() {
        let garbage = HTTPResponseHeadDecoder()
        guard case .failure(let error) = garbage.feed(Array("SSH-2.0-OpenSSH\r\n".utf8)) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.status == .badRequest)
        #expect(garbage.feed(Array("HTTP/1.1 101 OK\r\n\r\n".utf8)) == .failure(error))
        #expect(HTTPResponseHeadDecoder().feed(Array("HTTP/2.0 101 X\r\n\r\n".utf8)) == .failure(.versionNotSupported))
        #expect(HTTPResponseHeadDecoder().feed(Array("HTTP/1.1 101 X\r\nBad Name: v\r\n\r\n".utf8)) == .failure(.invalidHeaderName))
    }

    /// Found by fuzzing: a control character as a value's first byte got past http_parser.
    @Test func aControlCharacterStartingAValueFails() {
        let bytes = Array("HTTP/1.1 101 X\r\nUpgrade: \u{0}websocket\r\n\r\n".utf8)
        #expect(HTTPResponseHeadDecoder().feed(bytes) == .failure(.invalidHeaderValue))
    }
}
