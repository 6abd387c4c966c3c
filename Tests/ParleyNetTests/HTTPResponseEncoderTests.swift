import Testing
@testable import ParleyNet

@Suite struct HTTPResponseEncoderTests {
    private let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    private func encode(
        _ response: HTTPResponse, keepAlive: Bool = true, headRequest: Bool = false,
        version: HTTPVersion = .http1_1
    ) -> String {
        var response = response
        response.headers.replaceOrAdd(name: "Date", value: date)
        let bytes = HTTPResponseEncoder.encodeHead(response, keepAlive: keepAlive, headRequest: headRequest, requestVersion: version)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func statusLineHeadersAndContentLength() {
        let response = HTTPResponse(status: .ok, contentType: "text/plain; charset=utf-8", text: "hello")
        #expect(encode(response) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Date: \(date)\r\nContent-Length: 5\r\n\r\n")
    }

    @Test func emptyBodyHasContentLengthZero() {
        #expect(encode(HTTPResponse(status: .notFound)).contains("\r\nContent-Length: 0\r\n"))
    }

    @Test func closeAndHTTP10KeepAlive() {
        #expect(encode(HTTPResponse(status: .ok), keepAlive: false).contains("\r\nConnection: close\r\n"))
        #expect(encode(HTTPResponse(status: .ok, headers: ["Connection": "keep-alive"]), keepAlive: false)
            .contains("\r\nConnection: close\r\n"))
        #expect(!encode(HTTPResponse(status: .ok)).contains("Connection"))
        #expect(encode(HTTPResponse(status: .ok), version: .http1_0).contains("\r\nConnection: keep-alive\r\n"))
    }

    @Test func noContentLengthForBodylessStatusesOrTransferEncoding() {
        let switching = HTTPResponse(status: .switchingProtocols, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        #expect(encode(switching) == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nDate: \(date)\r\n\r\n")
        #expect(!encode(HTTPResponse(status: .noContent, headers: ["Content-Length": "3"])).contains("Content-Length"))
        #expect(!encode(HTTPResponse(status: .notModified, headers: ["ETag": "\"x\""])).contains("Content-Length"))
        let chunked = HTTPResponse(status: .ok, headers: ["Transfer-Encoding": "chunked", "Content-Length": "9"])
        #expect(!encode(chunked).contains("Content-Length"))
    }

    @Test func headKeepsTheDeclaredLengthOrTheBodyLength() {
        let declared = HTTPResponse(status: .ok, headers: ["Content-Length": "1234"])
        #expect(encode(declared, headRequest: true).contains("\r\nContent-Length: 1234\r\n"))
        // Without headRequest the declared length would be a lie about the (empty) body.
        #expect(encode(declared).contains("\r\nContent-Length: 0\r\n"))
        let withBody = HTTPResponse(status: .ok, body: ByteChunk.of([1, 2, 3]))
        #expect(encode(withBody, headRequest: true).contains("\r\nContent-Length: 3\r\n"))
        #expect(!HTTPResponseEncoder.sendsBody(status: .ok, headRequest: true))
        #expect(HTTPResponseEncoder.sendsBody(status: .ok, headRequest: false))
        #expect(!HTTPResponseEncoder.sendsBody(status: .notModified, headRequest: false))
        #expect(!HTTPResponseEncoder.sendsBody(status: .noContent, headRequest: false))
    }

    @Test func valuesCannotInjectHeaders() {
        let response = HTTPResponse(status: HTTPStatus(code: 200, reason: "OK\r\nX: y"),
                                    headers: ["Location": "/a\r\nSet-Cookie: x=1", "Bad Name": "v", "X-Nul": "a\u{0}b"])
        let text = encode(response)
        #expect(text.hasPrefix("HTTP/1.1 200 OK  X: y\r\nLocation: /a  Set-Cookie: x=1\r\nX-Nul: a b\r\n"))
        #expect(!text.contains("Bad Name"))
    }

    @Test func dateIsAddedInIMFFixdate() {
        let text = String(decoding: HTTPResponseEncoder.encodeHead(HTTPResponse(status: .ok), keepAlive: true), as: UTF8.self)
        let line = text.split(separator: "\r\n").first { $0.hasPrefix("Date: ") }
        #expect(line?.utf8.count == "Date: ".utf8.count + 29)
        #expect(line?.hasSuffix(" GMT") == true)
    }

    @Test func dateFormatting() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 4_133_980_799) == "Fri, 31 Dec 2100 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: 4_107_542_399) == "Sun, 28 Feb 2100 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }
}
