import Foundation
import ParleyKit
import ParleyProtocol
import TestSupport
import Testing

/// Uploads through ParleyKit against a real server (docs/protocol.md, "Media access"): a
/// member of the conversation downloads a picture with the session token and gets a signed
/// link to hand to an image view; someone outside it gets `forbidden` both ways.
@Suite("Media access through ParleyKit", .serialized)
struct MediaAccessKitTests {
    /// A PNG header of the given size (the server reads only the header).
    private static func png(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return Data(bytes + [8, 6, 0, 0, 0] + [UInt8](repeating: 0, count: 40))
    }

    private func refusal(_ body: () async throws -> Void) async -> ErrorCode? {
        do {
            try await body()
            return nil
        } catch {
            if case .server(let refused)? = error as? ParleyError { return refused.code }
            return nil
        }
    }

    @Test("members download with the token and get signed links; outsiders are refused")
    func membersAndOutsiders() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server), bob = try KitHarness.client(server), carol = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        try await carol.register(username: KitHarness.username("carol"), password: "password123")
        let picture = Self.png(width: 1200, height: 900)
        let media = try await alice.uploadImage(picture)
        let sent = try await alice.call(Op.MessageSend.self, SendParameters(conversationId: conversation, clientId: "pic", kind: .image,
                                                                           mediaId: media.id))
        // A JPEG or PNG this large gets a thumbnail, named in the message.
        #expect(sent.image?.width == 1200 && sent.image?.height == 900 && sent.image?.thumbnail == "/v1/media/\(media.id)/thumbnail")

        #expect(try await bob.downloadMedia(media.url) == picture)
        let link = try await bob.signedMediaURL(mediaId: media.id)
        #expect(link.mediaId == media.id && link.url.hasPrefix("/v1/media/\(media.id)?exp=") && link.url.contains("&sig="))
        #expect(link.expiresAt > Int64(Date().timeIntervalSince1970 * 1000))
        #expect(await refusal { _ = try await carol.downloadMedia(media.url) } == .forbidden)
        #expect(await refusal { _ = try await carol.signedMediaURL(mediaId: media.id) } == .forbidden)
        await alice.stop()
        await bob.stop()
        await carol.stop()
    }
}
