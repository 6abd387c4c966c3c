import Foundation
import ParleyKit
import ParleyProtocol
import Testing
import TestSupport

@Suite("ParleyClient over TLS", .serialized)
struct ParleyClientTLSTests {
    @Test("https:// and wss:// with a private CA: sign-up, friends and a message both ways")
    func chatOverTLS() async throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let server = try TestServer(tls: (certificate.certificatePath, certificate.keyPath))
        defer { server.stop() }
        #expect(server.url.scheme == "https")
        let alice = try KitHarness.client(server, caFile: certificate.certificatePath)
        let bob = try KitHarness.client(server, caFile: certificate.certificatePath)
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
        let certificate = try TestCertificate(), stranger = try TestCertificate()
        defer {
            certificate.remove()
            stranger.remove()
        }
        let server = try TestServer(tls: (certificate.certificatePath, certificate.keyPath))
        defer { server.stop() }
        for caFile in [nil, stranger.certificatePath] {
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
