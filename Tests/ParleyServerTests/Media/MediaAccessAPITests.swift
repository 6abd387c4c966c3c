import Foundation
import Testing
@testable import ParleyServer

/// `GET /v1/media/<id>` over real sockets: who may fetch an upload sent in a 1:1
/// conversation, with the session token or a signed link from `media.url`, and the error
/// code of every refusal.
@Suite(.serialized) struct MediaAccessAPITests {
    /// amy sends an image to her friend ben; carol is neither's friend.
    private func scene(_ server: TestServer) async throws -> (amy: Chatter, ben: Chatter, carol: Chatter, url: String, id: String) {
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let carol = try await Chatter("carol", on: server)
        let conversation = try await amy.befriend(ben)
        let upload = try await server.request("POST", "/v1/media", token: amy.token, raw: MediaAPITests.png(width: 8, height: 8))
        let id = try unwrap(upload.json["id"] as? String)
        _ = try await amy.call("message.send", ["conversationId": conversation, "clientId": "pic", "kind": "image", "mediaId": id])
        return (amy, ben, carol, "/v1/media/\(id)", id)
    }

    @Test func membersFetchWithTheirTokenOutsidersAreRefused() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (amy, ben, carol, url, _) = try await scene(server)
        let none = try await server.request("GET", url)
        #expect(none.status == 401 && none.errorCode == "unauthorized")
        #expect(try await server.request("GET", url, token: amy.token).status == 200)
        let member = try await server.request("GET", url, token: ben.token)
        #expect(member.status == 200 && member.headers["cache-control"] == "private, no-cache")
        let outsider = try await server.request("GET", url, token: carol.token)
        #expect(outsider.status == 403 && outsider.errorCode == "forbidden")
        #expect(try await server.request("GET", "/v1/media/nosuchupload", token: ben.token).errorCode == "not_found")
    }

    @Test func signedLinksAreMintedForMembersOnlyAndCannotBeAltered() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (_, ben, carol, _, id) = try await scene(server)
        #expect(try await carol.refused("media.url", ["mediaId": id]) == "forbidden")
        #expect(try await ben.refused("media.url", ["mediaId": "nosuchupload"]) == "not_found")
        let link = try await ben.call("media.url", ["mediaId": id])
        let signed = try unwrap(link["url"] as? String)
        #expect(signed.hasPrefix("/v1/media/\(id)?exp="))
        let expiresAt = Int64(try unwrap(link["expiresAt"] as? Int))
        #expect(expiresAt > Int64(Date().timeIntervalSince1970 * 1000) + 3_000_000)
        // No token needed, and a name may ride along.
        let fetched = try await server.request("GET", signed + "&name=cat.png")
        #expect(fetched.status == 200)
        #expect(fetched.headers["content-disposition"]?.contains("cat.png") == true)
        #expect(fetched.headers["cache-control"]?.hasPrefix("private, max-age=") == true)
        // A changed signature, a changed expiry, and the link used for another upload.
        let tampered = String(signed.dropLast()) + (signed.hasSuffix("0") ? "1" : "0")
        let bad = try await server.request("GET", tampered)
        #expect(bad.status == 403 && bad.errorCode == "bad_signature")
        let later = signed.replacingOccurrences(of: "exp=", with: "exp=9")
        #expect(try await server.request("GET", later).errorCode == "bad_signature")
        let other = try await server.request("POST", "/v1/media", token: ben.token, raw: MediaAPITests.png(width: 2, height: 2))
        let otherID = try unwrap(other.json["id"] as? String)
        let moved = signed.replacingOccurrences(of: "/v1/media/\(id)", with: "/v1/media/\(otherID)")
        #expect(try await server.request("GET", moved).errorCode == "bad_signature")
    }

    @Test func anExpiredLinkIsRefusedAndANewOneWorks() async throws {
        let server = try TestServer { $0.mediaURLSeconds = 1 }
        defer { server.stop() }
        let (_, ben, _, _, id) = try await scene(server)
        let first = try unwrap(try await ben.call("media.url", ["mediaId": id])["url"] as? String)
        #expect(try await server.request("GET", first).status == 200)
        try await Task.sleep(for: .milliseconds(2_200))
        let expired = try await server.request("GET", first)
        #expect(expired.status == 403 && expired.errorCode == "url_expired")
        let renewed = try unwrap(try await ben.call("media.url", ["mediaId": id])["url"] as? String)
        #expect(renewed != first)
        #expect(try await server.request("GET", renewed).status == 200)
    }
}

/// Thumbnails over real sockets: a large picture's message names its thumbnail, which a
/// member fetches (made on first request, the same afterwards) as a 320-pixel JPEG; a small
/// picture's thumbnail link serves the picture itself; an outsider gets neither.
@Suite(.serialized) struct ThumbnailAPITests {
    @Test func aLargePictureHasAThumbnailOnlyMembersFetch() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let carol = try await Chatter("carol", on: server)
        let conversation = try await amy.befriend(ben)
        let picture = TestPNG.rgba(width: 1000, height: 500) { x, y in (UInt8(x % 256), UInt8(y % 256), 128, 255) }
        let upload = try await server.request("POST", "/v1/media", token: amy.token, raw: Data(picture))
        let id = try unwrap(upload.json["id"] as? String)
        let sent = try await amy.call("message.send", ["conversationId": conversation, "clientId": "big", "kind": "image", "mediaId": id])
        let image = try unwrap(sent["image"] as? [String: Any])
        #expect(image["thumbnail"] as? String == "/v1/media/\(id)/thumbnail")
        #expect(image["width"] as? Int == 1000 && image["height"] as? Int == 500)

        let first = try await server.request("GET", "/v1/media/\(id)/thumbnail", token: ben.token)
        #expect(first.status == 200 && first.headers["content-type"] == "image/jpeg")
        let made = try ThumbnailMaker(maxPixels: 1_000_000).decodeJPEG(Array(first.body)) { width, height in (width, height) }
        #expect(made.width == 320 && made.height == 160)
        let again = try await server.request("GET", "/v1/media/\(id)/thumbnail", token: ben.token)
        #expect(again.body == first.body && again.headers["etag"] != nil && again.headers["etag"] != "\"\(id)\"")
        // The upload's signed link opens its thumbnail too.
        let link = try unwrap(try await ben.call("media.url", ["mediaId": id])["url"] as? String)
        let signed = link.replacingOccurrences(of: "/v1/media/\(id)?", with: "/v1/media/\(id)/thumbnail?")
        #expect(try await server.request("GET", signed).body == first.body)
        #expect(try await server.request("GET", "/v1/media/\(id)/thumbnail", token: carol.token).errorCode == "forbidden")
        #expect(try await server.request("GET", "/v1/media/\(id)/thumbnail").errorCode == "unauthorized")

        // A small picture needs none: no `thumbnail` in the message, the link serves the original.
        let small = Data(TestPNG.rgba(width: 100, height: 80) { _, _ in (1, 2, 3, 255) })
        let smallID = try unwrap(try await server.request("POST", "/v1/media", token: amy.token, raw: small).json["id"] as? String)
        let smallSent = try await amy.call("message.send", ["conversationId": conversation, "clientId": "small", "kind": "image",
                                                           "mediaId": smallID])
        #expect((smallSent["image"] as? [String: Any])?["thumbnail"] == nil)
        #expect(try await server.request("GET", "/v1/media/\(smallID)/thumbnail", token: ben.token).body == small)
    }

    @Test func aPixelBombIsRefusedAtUpload() async throws {
        let server = try TestServer { $0.maxImagePixels = 1_000_000 }
        defer { server.stop() }
        let (token, _) = try await server.register("bomber")
        let reply = try await server.request("POST", "/v1/media", token: token, raw: MediaAPITests.png(width: 2_000, height: 1_000))
        #expect(reply.status == 413 && reply.errorCode == "payload_too_large")
        #expect(try await server.request("POST", "/v1/media", token: token, raw: MediaAPITests.png(width: 1_000, height: 1_000)).status == 201)
    }
}
