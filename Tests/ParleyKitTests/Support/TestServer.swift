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

    /// The XMPP listener's port, when the test asked for one (0: none).
    let xmppPort: Int

    /// `xmpp`: with the Jabber gateway on a free loopback port, which also makes native
    /// devices resources (`presence.resource`, `user.resources`).
    init(tls: (certificate: String, key: String)? = nil, xmpp: Bool = false) throws {
        dataDirectory = NSTemporaryDirectory() + "parleykit-test-" + UUID().uuidString
        self.tls = tls
        if xmpp {
            xmppPort = try Self.freePort()
        } else {
            xmppPort = 0
        }
        try start()
    }

    /// A port nothing listens on right now (bound to port 0, then released).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TestFailure("getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
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
        configuration.xmppPort = xmppPort
        configuration.xmppDomain = "localhost"
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
