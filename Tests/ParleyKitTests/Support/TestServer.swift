import Foundation
import ParleyNet
import ParleyServer
import ParleySync

/// A real `ParleyServer` on a loopback port with its own temporary data directory, which can
/// be stopped and started again on the same port and data (to test reconnecting clients).
final class TestServer: Sendable {
    let dataDirectory: String
    private let current = PThreadMutex<ParleyServer?>(nil)
    private let boundPort = PThreadMutex<Int>(0)

    /// The certificate and key of `--tls-cert`/`--tls-key`, when the server speaks TLS.
    let tls: (certificate: String, key: String)?

    var port: Int { boundPort.withLock { $0 } }
    var url: URL { URL(string: tls == nil ? "http://127.0.0.1:\(port)" : "https://localhost:\(port)")! }

    init(tls: (certificate: String, key: String)? = nil) throws {
        dataDirectory = NSTemporaryDirectory() + "parleykit-test-" + UUID().uuidString
        self.tls = tls
        try start()
    }

    /// Starts the server (on the port it had before, if it ran before).
    func start() throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.dataDirectory = dataDirectory
        configuration.loops = 1
        configuration.passwordCost = "minimum"
        // No XMPP listener unless a test asks for one (its default port is fixed).
        configuration.xmppPort = 0
        configuration.webRoot = dataDirectory + "/no-web"
        configuration.shutdownTimeoutSeconds = 1
        configuration.tlsCertificate = tls?.certificate ?? ""
        configuration.tlsKey = tls?.key ?? ""
        let server = try ParleyServer(configuration: configuration, logger: Logger(label: "test", minimumLevel: .error))
        boundPort.withLock { $0 = server.port }
        current.withLock { $0 = server }
    }

    /// Stops the server and keeps its data.
    func halt() {
        current.withLock { server in
            server?.shutdown()
            server = nil
        }
    }

    /// Stops the server and removes its data.
    func stop() {
        halt()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
