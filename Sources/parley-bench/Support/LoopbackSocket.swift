import Glibc

/// Plain blocking IPv4 sockets for the helpers that only need to find a free port or see
/// whether a server is up; the load itself goes through ParleyNet.
enum LoopbackSocket {
    /// A port that was free a moment ago on `host` (the kernel's pick for port 0).
    static func freePort(host: String) throws(BenchError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .system("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = try socketAddress(host: host, port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw .system("bind failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw .system("getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to `host:port` succeeds now.
    static func accepts(host: String, port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, var address = try? socketAddress(host: host, port: port) else { return false }
        defer { close(fd) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return rc == 0
    }

    private static func socketAddress(host: String, port: Int) throws(BenchError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .usage("'\(host)' is not an IPv4 address") }
        return address
    }
}
