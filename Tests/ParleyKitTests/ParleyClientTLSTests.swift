import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("ParleyClient over TLS", .serialized)
struct ParleyClientTLSTests {
    @Test("https:// and wss:// with a private CA: sign-up, friends and a message both ways")
    func chatOverTLS() async throws {
        let directory = NSTemporaryDirectory() + "parleykit-tls-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pair = try makeTestCertificate(in: directory)
        let server = try TestServer(tls: pair)
        defer { server.stop() }
        #expect(server.url.scheme == "https")
        let alice = try KitHarness.client(server, caFile: pair.certificate)
        let bob = try KitHarness.client(server, caFile: pair.certificate)
        let bobEvents = EventRecorder(bob)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let sent = try await alice.sendAndWait(text: "over TLS", to: conversation)
        #expect(sent.text == "over TLS")
        try await KitHarness.eventually("bob receives it over wss") { bobEvents.texts(in: conversation) == ["over TLS"] }
        await alice.stop()
        await bob.stop()
    }

    @Test("a certificate no trusted CA vouches for is a clear error, never accepted")
    func untrustedCertificateFails() async throws {
        let directory = NSTemporaryDirectory() + "parleykit-tls-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pair = try makeTestCertificate(in: directory)
        let stranger = try makeTestCertificate(in: directory, name: "stranger")
        let server = try TestServer(tls: pair)
        defer { server.stop() }
        for caFile in [nil, stranger.certificate] {
            let client = try KitHarness.client(server, caFile: caFile)
            do {
                try await client.register(username: KitHarness.username("eve"), password: "password123")
                Issue.record("signed up over a certificate that does not verify (CA file: \(caFile ?? "system"))")
            } catch {
                #expect("\(error)".contains("certificate verification failed"), "\(error)")
            }
            await client.stop()
        }
    }
}
