import ParleyNet
import Testing

/// Push endpoints are chosen by clients: which addresses count as off the public internet.
@Suite struct SocketAddressInternalTests {
    @Test(arguments: ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                      "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fc12::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1"])
    func internalAddresses(_ host: String) throws {
        #expect(try SocketAddress(host: host, port: 443).isInternal)
    }

    @Test(arguments: ["8.8.8.8", "172.15.0.1", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])
    func publicAddresses(_ host: String) throws {
        #expect(try !SocketAddress(host: host, port: 443).isInternal)
    }

    @Test func loopbackIsOnlyLoopback() throws {
        #expect(try SocketAddress(host: "127.0.0.1", port: 80).isLoopback)
        #expect(try SocketAddress(host: "::1", port: 80).isLoopback)
        #expect(try !SocketAddress(host: "10.0.0.1", port: 80).isLoopback)
    }

    @Test func namesResolveAndNumbersPassThrough() throws {
        #expect(try SocketAddress.resolve(host: "localhost", port: 8080).first == SocketAddress(host: "127.0.0.1", port: 8080))
        #expect(try SocketAddress.resolve(host: "10.0.0.7", port: 1) == [SocketAddress(host: "10.0.0.7", port: 1)])
        #expect(throws: SocketAddressError.self) { try SocketAddress.resolve(host: "no-such-host.invalid", port: 1) }
    }
}
