import Foundation
import Testing
@testable import ParleyNet

/// Streamed bodies admitted or refused from the request's head alone
/// (`HTTPBodyStreaming.admission`), before any byte of the body is read or written.
@Suite(.serialized) struct HTTPBodyAdmissionTests {
    /// Runs the blocking client `body` on a thread of its own: the server's admission runs as
    /// a task, which a test blocking a thread of the shared pool in `recv` could starve.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    private let body: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 13) }

    /// Admits a request whose `X-Key` is `open`; refuses others with 401.
    private static let admission: @Sendable (HTTPRequestHead, HTTPRequestContext) async -> HTTPResponse? = { head, _ in
        head.headers[first: "X-Key"] == "open"
            ? nil : HTTPResponse(status: HTTPStatus(code: 401, reason: "Unauthorized"), contentType: "text/plain", text: "no key")
    }

    private func streaming(_ scratch: HTTPBodyStreamingTests.Scratch) -> HTTPBodyStreaming {
        HTTPBodyStreaming(directory: scratch.path, limit: { head in head.path == "/upload" ? 10_000 : nil },
                          admission: Self.admission)
    }

    // MARK: The decoder

    @Test func theDecoderWaitsAtTheHeadAndParsesTheHeldBytesOnceAdmitted() throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let decoder = HTTPRequestDecoder(limits: HTTPLimits(maxBodyBytes: 16), streaming: streaming(scratch))
        let bytes = Array("POST /upload HTTP/1.1\r\nHost: a\r\nX-Key: open\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            + Array("GET /next HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let first = decoder.feed(Array(bytes[..<100]))
        #expect(first.awaitingAdmission?.path == "/upload")
        #expect(first.requests.isEmpty && first.terminal == nil)
        // More bytes while waiting are held too, and nothing is on disk yet.
        let second = decoder.feed(Array(bytes[100...]))
        #expect(second.requests.isEmpty && second.awaitingAdmission == nil)
        #expect(scratch.files.isEmpty)
        let admitted = decoder.admit()
        #expect(admitted.requests.count == 2)
        let file = try #require(admitted.requests.first?.bodyFile)
        #expect(Array(FileManager.default.contents(atPath: file.path) ?? Data()) == body)
        #expect(admitted.requests.last?.head.path == "/next")
    }

    @Test func aRefusedBodyIsNeverParsedNorStored() throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let decoder = HTTPRequestDecoder(streaming: streaming(scratch))
        let output = decoder.feed(Array("POST /upload HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        #expect(output.awaitingAdmission != nil)
        decoder.refuseAdmission()
        #expect(decoder.isFinished)
        #expect(decoder.feed(Array("GET / HTTP/1.1\r\n\r\n".utf8)).requests.isEmpty)
        #expect(scratch.files.isEmpty)
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedWithoutAsking() throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let decoder = HTTPRequestDecoder(streaming: streaming(scratch))
        let output = decoder.feed(Array("POST /upload HTTP/1.1\r\nX-Key: open\r\nContent-Length: 10001\r\n\r\n".utf8))
        #expect(output.terminal == .failure(.bodyTooLarge))
        #expect(output.awaitingAdmission == nil)
    }

    // MARK: A live server

    /// Answers a streamed upload with its size, anything else with 200.
    struct SizeResponder: HTTPResponder {
        func respond(to request: HTTPRequest, context: HTTPRequestContext) {
            let text = request.bodyFile.map { "stored \($0.size)" } ?? "plain"
            context.respond(HTTPResponse(status: .ok, contentType: "text/plain", text: text))
        }
    }

    private func server(_ scratch: HTTPBodyStreamingTests.Scratch) throws -> (EventLoopGroup, HTTPServer) {
        var configuration = HTTPServer.Configuration(originPolicy: .allowAny)
        configuration.bodyStreaming = streaming(scratch)
        let group = try EventLoopGroup(loopCount: 1)
        let server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                    configuration: configuration, responder: SizeResponder())
        return (group, server)
    }

    @Test func aRefusalComesFromTheHeadWhileTheClientWaitsWithItsBody() async throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let (group, server) = try server(scratch)
        defer { _ = server.shutdown(timeout: .seconds(2)); group.shutdown() }
        let port = server.localAddress.port
        let body = self.body
        let directory = scratch.path
        try await Self.onThread {
            let client = try BlockingSocket(port: port, timeoutSeconds: 5)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
            // No byte of the body was sent: the answer comes anyway, and no 100 before it.
            let reply = String(decoding: try client.receiveUntilClose(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 401"))
            #expect(!reply.contains("100 Continue"))
            #expect(reply.contains("no key"))
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).isEmpty)
        }
    }

    @Test func anAdmittedClientHears100ContinueThenSendsItsBody() async throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let (group, server) = try server(scratch)
        defer { _ = server.shutdown(timeout: .seconds(2)); group.shutdown() }
        let port = server.localAddress.port
        let body = self.body
        let directory = scratch.path
        try await Self.onThread {
            let client = try BlockingSocket(port: port, timeoutSeconds: 5)
            try client.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n"
                            + "POST /upload HTTP/1.1\r\nHost: x\r\nX-Key: open\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
            // The earlier request's answer first, then the interim answer.
            let interim = try client.receive(until: "100 Continue\r\n\r\n")
            #expect(interim.hasPrefix("HTTP/1.1 200"))
            #expect(interim.contains("plain"))
            // Admitted: the body's file exists now, still empty (no byte was sent).
            let made = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            #expect(made.count == 1 && made.allSatisfy {
                ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size]) as? NSNumber)?.intValue == 0
            })
            try client.send(body)
            try client.send("GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let rest = String(decoding: try client.receiveUntilClose(), as: UTF8.self)
            #expect(rest.contains("stored \(body.count)"))
            #expect(rest.hasSuffix("plain"))
        }
    }

    @Test func anAdmittedBodySentAtOnceWithItsHeadArrivesWhole() async throws {
        let scratch = try HTTPBodyStreamingTests.Scratch()
        let (group, server) = try server(scratch)
        defer { _ = server.shutdown(timeout: .seconds(2)); group.shutdown() }
        let port = server.localAddress.port
        let body = self.body
        let directory = scratch.path
        try await Self.onThread {
            let client = try BlockingSocket(port: port, timeoutSeconds: 5)
            try client.send(Array("POST /upload HTTP/1.1\r\nHost: x\r\nX-Key: open\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            let reply = String(decoding: try client.receiveUntilClose(), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 200"))
            #expect(reply.contains("stored \(body.count)"))
            #expect(!reply.contains("100 Continue"))
        }
    }
}
