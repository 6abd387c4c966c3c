import Foundation
import Testing
@testable import ParleyNet

/// Bodies of upload routes written to a file as they arrive (`HTTPBodyStreaming`).
@Suite struct HTTPBodyStreamingTests {
    /// A fresh directory for one test's temporary files, removed with its contents after.
    final class Scratch {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "parley-stream-\(UInt64.random(in: 0...UInt64.max))"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var files: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
    }

    private func decoder(_ scratch: Scratch, limit: Int = 1000) -> HTTPRequestDecoder {
        HTTPRequestDecoder(limits: HTTPLimits(maxBodyBytes: 16), streaming: HTTPBodyStreaming(directory: scratch.path) { head in
            head.method == .post && head.path == "/upload" ? limit : nil
        })
    }

    private func contents(_ file: HTTPBodyFile?) -> [UInt8]? {
        guard let file, let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return Array(data)
    }

    private let body: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    private var request: [UInt8] {
        Array("POST /upload?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            + Array("GET /next HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
    }

    @Test func aStreamedBodyGoesToAFileAndNotToMemory() throws {
        let scratch = try Scratch()
        let output = decoder(scratch).feed(request)
        #expect(output.terminal == nil)
        #expect(output.requests.count == 2)
        let upload = try #require(output.requests.first)
        #expect(upload.body.isEmpty)
        #expect(upload.bodyFile?.size == body.count)
        #expect(contents(upload.bodyFile) == body)
        #expect(output.requests.last?.head.path == "/next" && output.requests.last?.bodyFile == nil)
    }

    @Test func everySplitPointGivesTheSameFile() throws {
        let scratch = try Scratch()
        let bytes = request
        for split in 1..<bytes.count {
            let decoder = decoder(scratch)
            let first = decoder.feed(Array(bytes[..<split]))
            let second = decoder.feed(Array(bytes[split...]))
            let requests = first.requests + second.requests
            #expect(first.terminal == nil && second.terminal == nil)
            #expect(requests.count == 2, "split at \(split)")
            #expect(contents(requests.first?.bodyFile) == body, "split at \(split)")
        }
        // Every body file was dropped unclaimed above: none is left.
        #expect(scratch.files.isEmpty)
    }

    @Test func aChunkedBodyIsDeChunkedIntoTheFile() throws {
        let scratch = try Scratch()
        let text = "POST /upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        let output = decoder(scratch).feed(Array(text.utf8))
        #expect(contents(output.requests.first?.bodyFile) == Array("hello world".utf8))
    }

    @Test func anEmptyBodyIsAnEmptyFile() throws {
        let scratch = try Scratch()
        let output = decoder(scratch).feed(Array("POST /upload HTTP/1.1\r\nContent-Length: 0\r\n\r\n".utf8))
        let file = try #require(output.requests.first?.bodyFile)
        #expect(file.size == 0 && contents(file) == [])
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeAnyBody() throws {
        let scratch = try Scratch()
        let output = decoder(scratch, limit: 100).feed(Array("POST /upload HTTP/1.1\r\nContent-Length: 101\r\n\r\n".utf8))
        #expect(output.terminal == .failure(.bodyTooLarge))
        #expect(scratch.files.isEmpty)
    }

    @Test func aChunkedBodyPassingTheLimitMidwayIsRefusedAndItsFileRemoved() throws {
        let scratch = try Scratch()
        let decoder = decoder(scratch, limit: 100)
        let start = decoder.feed(Array("POST /upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n".utf8) + [UInt8](repeating: 1, count: 80) + Array("\r\n".utf8))
        #expect(start.terminal == nil)
        #expect(scratch.files.count == 1)
        #expect(decoder.progress == .body(bytes: 80))
        let over = decoder.feed(Array("20\r\n".utf8) + [UInt8](repeating: 2, count: 32))
        #expect(over.terminal == .failure(.bodyTooLarge))
        #expect(scratch.files.isEmpty)
    }

    @Test func aConnectionClosedMidBodyLeavesNoFile() throws {
        let scratch = try Scratch()
        let decoder = decoder(scratch)
        let bytes = request
        _ = decoder.feed(Array(bytes[..<(bytes.count - 100)]))
        #expect(scratch.files.count == 1)
        decoder.close()
        #expect(scratch.files.isEmpty)
    }

    @Test func aDecoderDroppedMidBodyLeavesNoFile() throws {
        let scratch = try Scratch()
        do {
            let decoder = decoder(scratch)
            _ = decoder.feed(Array(request[..<60]))
            #expect(scratch.files.count == 1)
        }
        #expect(scratch.files.isEmpty)
    }

    @Test func aClaimedFileStaysAndIsClaimedOnce() throws {
        let scratch = try Scratch()
        var kept: String?
        do {
            let output = decoder(scratch).feed(request)
            let file = try #require(output.requests.first?.bodyFile)
            kept = file.claim()
            #expect(file.claim() == nil)
        }
        let path = try #require(kept)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func otherRoutesKeepTheMemoryLimit() throws {
        let scratch = try Scratch()
        let output = decoder(scratch).feed(Array("POST /other HTTP/1.1\r\nContent-Length: 17\r\n\r\n".utf8))
        #expect(output.terminal == .failure(.bodyTooLarge))
        let small = decoder(scratch).feed(Array("POST /other HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc".utf8))
        #expect(small.requests.first?.body == Array("abc".utf8) && small.requests.first?.bodyFile == nil)
        #expect(scratch.files.isEmpty)
    }

    @Test func aMissingDirectoryIsA500NotACrash() {
        let decoder = HTTPRequestDecoder(streaming: HTTPBodyStreaming(directory: "/nonexistent-parley-dir") { _ in 10 })
        let output = decoder.feed(Array("POST /upload HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc".utf8))
        #expect(output.terminal == .failure(.bodyNotStored))
    }
}
