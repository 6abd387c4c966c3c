import Foundation
import Glibc
import Testing
@testable import ParleyServer

/// Resumable uploads (`/v1/file-uploads`) against a real server, and uploads refused from
/// their head before any byte of the body is read.
@Suite(.serialized) struct ResumableUploadTests {
    /// `count` bytes that differ along the file, so a piece in the wrong place shows.
    static func bytes(_ count: Int, seed: UInt32 = 7) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
    }

    private func create(_ server: TestServer, token: String, size: Int) async throws -> String {
        let created = try await server.request("POST", "/v1/file-uploads", token: token, json: ["size": size, "name": "notes.bin"])
        #expect(created.status == 201)
        #expect(created.json["offset"] as? Int == 0)
        let id = try #require(created.json["id"] as? String)
        #expect(created.headers["location"] == "/v1/file-uploads/\(id)")
        return id
    }

    private func patch(_ server: TestServer, token: String, id: String, offset: Int, _ piece: Data) async throws -> TestServer.Reply {
        try await server.request("PATCH", "/v1/file-uploads/\(id)", token: token, raw: piece,
                                 headers: ["Upload-Offset": String(offset), "Content-Type": "application/octet-stream"])
    }

    @Test func aFileSentInPiecesArrivesByteIdentical() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("piecemeal")
        let file = Self.bytes(300_000)
        let id = try await create(server, token: token, size: file.count)

        let first = try await patch(server, token: token, id: id, offset: 0, file[0..<120_000])
        #expect(first.status == 200 && first.json["offset"] as? Int == 120_000)
        #expect(first.headers["upload-offset"] == "120000")
        let head = try await server.request("HEAD", "/v1/file-uploads/\(id)", token: token)
        #expect(head.status == 200 && head.headers["upload-offset"] == "120000" && head.headers["upload-length"] == "300000")

        // A piece that does not start where the upload stands is refused and tells where it does.
        let stale = try await patch(server, token: token, id: id, offset: 0, file[0..<1000])
        #expect(stale.status == 409 && stale.errorCode == "upload_offset_mismatch")
        #expect(stale.headers["upload-offset"] == "120000")
        // So is one that would pass the end.
        let long = try await patch(server, token: token, id: id, offset: 120_000, file[120_000...] + Data([1]))
        #expect(long.status == 413 && long.errorCode == "payload_too_large")

        let last = try await patch(server, token: token, id: id, offset: 120_000, file[120_000...])
        #expect(last.status == 201)
        let media = try #require(last.json["media"] as? [String: Any])
        #expect(media["size"] as? Int == file.count)
        let url = try #require(media["url"] as? String)
        let download = try await server.request("GET", url, token: token)
        #expect(download.status == 200 && download.body == file)
        // Finished: the upload is gone, its bytes now the media's.
        #expect(try await server.request("HEAD", "/v1/file-uploads/\(id)", token: token).status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/resumable").isEmpty)
    }

    @Test func anUploadResumesAfterTheServerRestarts() async throws {
        let first = try TestServer()
        let (token, _) = try await first.register("restarter")
        let file = Self.bytes(200_000, seed: 3)
        let id = try await create(first, token: token, size: file.count)
        #expect(try await patch(first, token: token, id: id, offset: 0, file[0..<80_000]).status == 200)
        first.server.shutdown()

        let second = try TestServer { $0.dataDirectory = first.dataDirectory }
        defer { second.stop() }
        let status = try await second.request("GET", "/v1/file-uploads/\(id)", token: token)
        #expect(status.status == 200 && status.json["offset"] as? Int == 80_000)
        let last = try await patch(second, token: token, id: id, offset: 80_000, file[80_000...])
        #expect(last.status == 201)
        let url = try #require((last.json["media"] as? [String: Any])?["url"] as? String)
        #expect(try await second.request("GET", url, token: token).body == file)
    }

    @Test func anotherUsersUploadIsNotFound() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (owner, _) = try await server.register("owner")
        let (other, _) = try await server.register("other")
        let id = try await create(server, token: owner, size: 10)
        #expect(try await server.request("GET", "/v1/file-uploads/\(id)", token: other).status == 404)
        #expect(try await patch(server, token: other, id: id, offset: 0, Self.bytes(10)).status == 404)
        #expect(try await server.request("DELETE", "/v1/file-uploads/\(id)", token: other).status == 404)
        #expect(try await patch(server, token: owner, id: id, offset: 0, Data()).status == 200, "the owner's upload is untouched")
        #expect(try await server.request("DELETE", "/v1/file-uploads/\(id)", token: owner).status == 204)
        #expect(try await server.request("GET", "/v1/file-uploads/\(id)", token: owner).status == 404)
    }

    @Test func limitsOnCreation() async throws {
        let server = try TestServer { $0.maxFileBytes = 1000; $0.maxOpenUploadsPerUser = 2 }
        defer { server.stop() }
        let (token, _) = try await server.register("limited")
        let big = try await server.request("POST", "/v1/file-uploads", token: token, json: ["size": 1001])
        #expect(big.status == 413 && big.errorCode == "payload_too_large")
        _ = try await create(server, token: token, size: 10)
        _ = try await create(server, token: token, size: 10)
        let third = try await server.request("POST", "/v1/file-uploads", token: token, json: ["size": 10])
        #expect(third.status == 429 && third.errorCode == "quota_exceeded")
        #expect(try await server.request("POST", "/v1/file-uploads", json: ["size": 10]).status == 401)
    }

    @Test func unfinishedUploadsExpire() async throws {
        let server = try TestServer { $0.uploadExpirySeconds = 1 }
        defer { server.stop() }
        let (token, _) = try await server.register("slowpoke")
        let id = try await create(server, token: token, size: 100)
        #expect(await server.server.resumableUploads.removeExpired() == 0)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(await server.server.resumableUploads.removeExpired() == 1)
        #expect(try await server.request("GET", "/v1/file-uploads/\(id)", token: token).status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/resumable").isEmpty)
    }

    // MARK: Refused from the head

    /// Sends `head` alone on a fresh connection and reads until the server closes; the body
    /// it announces is never sent.
    static func headOnly(port: Int, _ head: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("connect") }
        let bytes = Array(head.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw TestFailure("send") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test func uploadsAreRefusedFromTheirHeadBeforeTheBody() async throws {
        let server = try TestServer { $0.maxFileBytes = 1 << 20; $0.mediaQuotaBytes = 100_000 }
        defer { server.stop() }
        let (token, _) = try await server.register("header")
        let port = server.port
        let incoming = server.dataDirectory + "/incoming"
        let cases: [(String, String, String)] = [
            ("POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n", "401", "unauthorized"),
            ("POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer nonsense\r\nContent-Length: 5000\r\n\r\n", "401", "unauthorized"),
            ("POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nExpect: 100-continue\r\nContent-Length: \((1 << 20) + 1)\r\n\r\n", "413", "payload_too_large"),
            ("POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nExpect: 100-continue\r\nContent-Length: 200000\r\n\r\n", "429", "quota_exceeded"),
            ("PATCH /v1/file-uploads/nosuchupload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nUpload-Offset: 0\r\nContent-Length: 10\r\n\r\n", "404", "not_found"),
        ]
        for (head, status, code) in cases {
            // On a thread of its own: blocking the shared pool in recv could starve the
            // server's admission task.
            let reply: String = try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try Self.headOnly(port: port, head) }) }.start()
            }
            #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(head): \(reply)")
            #expect(reply.contains("\"\(code)\""), "\(head): \(reply)")
            #expect(!reply.contains("100 Continue"))
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []).isEmpty)
        }
    }
}
