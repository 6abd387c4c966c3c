import Foundation
import Testing
@testable import ParleyServer

@Suite(.serialized) struct MediaAPITests {
    static func png(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return Data(bytes + [8, 6, 0, 0, 0] + [UInt8](repeating: 0, count: 40))
    }

    @Test func uploadAndFetchAnImage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("painter")
        let image = Self.png(width: 64, height: 32)
        let upload = try await server.request("POST", "/v1/media", token: token, raw: image, headers: ["Content-Type": "text/plain"])
        #expect(upload.status == 201)
        #expect(upload.json["type"] as? String == "image/png")
        #expect(upload.json["width"] as? Int == 64 && upload.json["height"] as? Int == 32)
        #expect(upload.json["size"] as? Int == image.count)
        let url = try #require(upload.json["url"] as? String)
        // Not sent anywhere yet: its owner's alone, fetched with the session token.
        #expect(try await server.request("GET", url).status == 401)
        let fetched = try await server.request("GET", url, token: token)
        #expect(fetched.status == 200)
        #expect(fetched.body == image)
        #expect(fetched.headers["content-type"] == "image/png")
        #expect(fetched.headers["cache-control"] == "private, no-cache")
        let etag = try #require(fetched.headers["etag"])
        #expect(try await server.request("GET", url, token: token, headers: ["If-None-Match": etag]).status == 304)
        // The avatar may point at the upload, which makes it public and cacheable for good.
        let avatar = try await server.request("PATCH", "/v1/me", token: token, json: ["avatar": url])
        #expect(avatar.json["avatar"] as? String == url)
        let anyone = try await server.request("GET", url)
        #expect(anyone.status == 200 && anyone.body == image)
        #expect(anyone.headers["cache-control"]?.contains("immutable") == true)
    }

    @Test func refusals() async throws {
        let server = try TestServer { $0.maxMediaBytes = 2048 }
        defer { server.stop() }
        let (token, _) = try await server.register("uploader")
        #expect(try await server.request("POST", "/v1/media", raw: Self.png(width: 1, height: 1)).status == 401)
        let notImage = try await server.request("POST", "/v1/media", token: token, raw: Data("<svg onload=alert(1)>".utf8),
                                                headers: ["Content-Type": "image/png"])
        #expect(notImage.status == 415 && notImage.errorCode == "unsupported_media_type")
        let big = Self.png(width: 10, height: 10) + Data(count: 4096)
        let tooBig = try await server.request("POST", "/v1/media", token: token, raw: big)
        #expect(tooBig.status == 413 && tooBig.errorCode == "payload_too_large")
        #expect(try await server.request("GET", "/v1/media/doesnotexist").status == 404)
        #expect(try await server.request("GET", "/v1/media/..%2F..%2Fetc%2Fpasswd").status == 404)
    }
}
