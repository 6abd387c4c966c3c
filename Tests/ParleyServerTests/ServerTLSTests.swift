import Foundation
import ParleyNet
import ParleySync
@testable import ParleyServer
import Testing
import TestSupport

@Suite struct ServerTLSTests {
    /// One HTTPS GET with ParleyNet's client, trusting `caFile`.
    private static func get(_ path: String, port: Int, caFile: String) throws -> Result<HTTPClientExchange.Response, HTTPClientExchangeError> {
        let group = try EventLoopGroup(loopCount: 1, name: "test-client")
        defer { group.shutdown() }
        let trust = try TLSContext(clientCAFile: caFile, alpn: ["http/1.1"])
        let outcome = PThreadMutex<Result<HTTPClientExchange.Response, HTTPClientExchangeError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let loop = group.next()
        let address = try SocketAddress(host: "127.0.0.1", port: port)
        loop.execute {
            HTTPClientExchange.send(HTTPRequestHead(method: .get, uri: path, headers: ["Host": "localhost"]), to: address,
                                    on: loop, tls: trust, serverName: "localhost") { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        guard done.wait(timeout: .now() + 15) == .success, let result = outcome.withLock({ $0 }) else {
            throw NoAnswerInTime()
        }
        return result
    }

    private struct NoAnswerInTime: Error {}

    @Test func httpsWithHSTSAndACertificateReloadedInPlace() throws {
        let first = try TestCertificate(commonName: "first")
        let second = try TestCertificate(commonName: "second")
        defer { first.remove(); second.remove() }
        let server = try TestServer {
            $0.tlsCertificate = first.certificatePath
            $0.tlsKey = first.keyPath
            $0.hstsMaxAgeSeconds = 1234
        }
        defer { server.stop() }
        let answer = try Self.get("/healthz", port: server.port, caFile: first.certificatePath).get()
        #expect(answer.status == 200)
        #expect(answer.headers[first: "Strict-Transport-Security"] == "max-age=1234")

        // Renewal: new files in place, then the reload (what SIGHUP does).
        let old = first.directory + "/old.pem"
        try FileManager.default.copyItem(atPath: first.certificatePath, toPath: old)
        try FileManager.default.removeItem(atPath: first.certificatePath)
        try FileManager.default.removeItem(atPath: first.keyPath)
        try FileManager.default.copyItem(atPath: second.certificatePath, toPath: first.certificatePath)
        try FileManager.default.copyItem(atPath: second.keyPath, toPath: first.keyPath)
        server.server.reloadCertificates()
        #expect(try Self.get("/healthz", port: server.port, caFile: second.certificatePath).get().status == 200)
        guard case .failure(let error) = try Self.get("/healthz", port: server.port, caFile: old) else {
            Issue.record("a client trusting only the old certificate got an answer after the reload")
            return
        }
        #expect(error.description.contains("TLS failed"))

        // A broken pair at reload keeps the one in use.
        try "not a certificate".write(toFile: first.certificatePath, atomically: true, encoding: .utf8)
        server.server.reloadCertificates()
        #expect(try Self.get("/healthz", port: server.port, caFile: second.certificatePath).get().status == 200)
    }

    @Test func badCertificateSettingsAreConfigurationErrors() throws {
        let certificate = try TestCertificate()
        let other = try TestCertificate()
        defer { certificate.remove(); other.remove() }
        func flag(_ adjust: @escaping (inout ServerConfiguration) -> Void) -> String? {
            do {
                let server = try TestServer(adjust)
                server.stop()
                return nil
            } catch let ConfigurationError.invalidValue(flag, _, _) {
                return flag
            } catch {
                return "unexpected: \(error)"
            }
        }
        #expect(flag { $0.tlsCertificate = certificate.certificatePath; $0.tlsKey = other.keyPath } == "tls-cert")
        #expect(flag { $0.tlsCertificate = "/nonexistent.pem"; $0.tlsKey = certificate.keyPath } == "tls-cert")
        #expect(flag { $0.tlsCertificate = certificate.certificatePath } == "tls-key")
        #expect(flag { $0.xmppTLSPort = 15223 } == "xmpp-tls-port")
        #expect(flag { $0.tlsCertificate = certificate.certificatePath; $0.tlsKey = certificate.keyPath } == nil)
    }
}
