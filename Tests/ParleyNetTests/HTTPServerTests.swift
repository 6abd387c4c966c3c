import Foundation
import Testing
@testable import ParleyNet

@Suite struct HTTPServerTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try BlockingSocket(port: server.port)
        for i in 0..<5 {
            try client.send("GET /hello/n\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = try client.receive(until: "hello n\(i)")
            #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try BlockingSocket(port: server.port)
        var burst = ""
        for i in 0..<40 { burst += "GET /hello/p\(i) HTTP/1.1\r\nHost: x\r\n\r\n" }
        burst += "GET /hello/last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        try client.send(burst)
        let text = String(decoding: try client.receiveUntilClose(), as: UTF8.self)
        var position = text.startIndex
        for i in 0..<40 {
            let range = try #require(text.range(of: "hello p\(i)", range: position..<text.endIndex))
            position = range.upperBound
        }
        #expect(text.hasSuffix("hello last"))
    }

    @Test func postBodyContentLengthAndChunked() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try BlockingSocket(port: server.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde")
        #expect(try client.receive(until: "abcde").contains("Content-Length: 5"))
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n2\r\n12\r\n0\r\n\r\n")
        #expect(try client.receive(until: "xyz12").contains("Content-Length: 5"))
    }

    @Test func limitsAnswerWithTheirStatusAndClose() throws {
        let configuration = HTTPServer.Configuration(
            limits: HTTPLimits(maxHeaderBytes: 1024, maxHeaderCount: 10, maxURILength: 100, maxBodyBytes: 10),
            originPolicy: .allowAny)
        let server = try TestHTTPServer(configuration: configuration)
        defer { server.stop() }
        let cases: [(String, String)] = [
            ("GET /" + String(repeating: "a", count: 200) + " HTTP/1.1\r\nHost: x\r\n\r\n", "414"),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 2000) + "\r\n\r\n", "431"),
            ("GET / HTTP/1.1\r\n" + (0..<20).map { "X-\($0): y\r\n" }.joined() + "\r\n", "431"),
            ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world", "413"),
            ("BLAH\r\n\r\n", "400"),
        ]
        for (request, status) in cases {
            let client = try BlockingSocket(port: server.port)
            try client.send(request)
            let reply = String(decoding: try client.receiveUntilClose(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(status): \(reply.prefix(60))")
        }
    }

    @Test func unknownPathAndWrongMethod() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try BlockingSocket(port: server.port)
        try client.send("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 404"))
        try client.send("DELETE /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try client.receive(until: "\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 405"))
        #expect(reply.contains("Allow: POST"))
    }

    @Test func responseMetricsByClass() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try BlockingSocket(port: server.port)
        try client.send("GET /hello/a HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.receive(until: "hello a")
        try client.send("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = try client.receiveUntilClose()
        let metrics = server.group.metrics
        #expect(metrics.httpResponsesByClass[1] == 1)
        #expect(metrics.httpResponsesByClass[3] == 1)
    }
}
