import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import Testing
@testable import ParleyXMPP

/// Links to uploads as Jabber clients get them (docs/xmpp.md, "Media links"): absolute and
/// signed, with the file's name; read back to the upload's path and name when a Jabber
/// client sends one; avatars plain.
@Suite struct MediaLinkTests {
    private static let signer = MediaURLSigner(lifetimeSeconds: 7 * 86_400) { CryptoHash.sha256.hmac(key: Array("k".utf8), $0) }

    @Test func linksToUploadsAreSignedAndReadBack() throws {
        let fixture = try HandlerFixture { $0.mediaURLs = Self.signer }
        let services = fixture.services
        let link = services.mediaLink("/v1/media/abc", name: "tea plan.txt")
        #expect(link.hasPrefix("https://chat.test/v1/media/abc?exp=") && link.hasSuffix("&name=tea%20plan.txt"))
        let items = try #require(URLComponents(string: link)?.queryItems)
        let exp = items.first { $0.name == "exp" }?.value, sig = items.first { $0.name == "sig" }?.value
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(throws: Never.self) { try Self.signer.verify(mediaID: "abc", expires: exp, signature: sig, now: now) }
        #expect(Int64(exp ?? "") ?? 0 >= now / 1000 + 7 * 86_400)
        // Read back: the path without the query, and the name.
        #expect(services.mediaPath(link) == "/v1/media/abc")
        #expect(XMPPServices.linkName(link) == "tea plan.txt")
        let message = XMLElement("message", ["id": "m1", "type": "chat"], children: [XMLElement("body", [:], text: link)])
        let parameters = services.sendParameters(for: message, body: link, in: ConversationID(1))
        #expect(parameters.kind == .image && parameters.mediaId == "abc" && parameters.name == "tea plan.txt")
        // A link elsewhere, or to something under an upload's path, is text.
        for other in ["https://example.com/v1/media/abc", "https://chat.test/v1/media/abc/thumbnail"] {
            #expect(services.sendParameters(for: message, body: other, in: ConversationID(1)).kind == .text, "\(other)")
        }
        // Avatars are public: their links stay plain.
        #expect(services.absoluteURL("/v1/media/face") == "https://chat.test/v1/media/face")
    }

    @Test func withoutASignerLinksArePlain() throws {
        let services = try HandlerFixture().services
        #expect(services.mediaLink("/v1/media/abc") == "https://chat.test/v1/media/abc")
        #expect(services.mediaLink("/v1/media/abc", name: "a b") == "https://chat.test/v1/media/abc?name=a%20b")
    }
}
