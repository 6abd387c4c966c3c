import Foundation
import ParleyNet

/// How the server meets browsers and proxies, from `--public-url`, `--allowed-origins`,
/// `--trusted-proxies` and the listening host: which `Host` names it answers, which page
/// origins may open WebSockets, and whose forwarding headers it believes.
struct PublicExposure {
    let originPolicy: WebSocketOriginPolicy
    let allowedHosts: Set<String>?
    let originScheme: String?
    let clientAddresses: ClientAddressResolver

    /// Names of this machine's loopback interface: always answered (health checks, the
    /// operator's own browser), and no rebinding page can send them as its `Host`.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    init(_ configuration: ServerConfiguration, tls: Bool = false) throws(ConfigurationError) {
        guard let resolver = ClientAddressResolver(list: configuration.trustedProxies) else {
            throw .invalidValue(flag: "trusted-proxies", value: configuration.trustedProxies, expected: "IP addresses or CIDR ranges separated by commas")
        }
        clientAddresses = resolver
        // Behind a proxy the page's scheme is the proxy's, which this server cannot see.
        originScheme = resolver.trustedProxies.isEmpty ? (tls ? "https" : "http") : nil
        let listed = configuration.allowedOrigins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if configuration.publicURL.isEmpty {
            originPolicy = listed.isEmpty ? .sameOrigin : listed.contains("*") ? .allowAny : .allowList(listed)
            // On a loopback listener only loopback names can be meant; elsewhere the server
            // cannot know its names without --public-url.
            allowedHosts = Self.isLoopback(configuration.host) ? Self.loopbackNames.union([Self.bracketed(configuration.host.lowercased())]) : nil
            return
        }
        guard let url = URL(string: configuration.publicURL), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = url.host?.lowercased(), !host.isEmpty else {
            throw .invalidValue(flag: "public-url", value: configuration.publicURL, expected: "an http:// or https:// URL such as https://chat.example.org")
        }
        let origin = url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
        originPolicy = listed.contains("*") ? .allowAny : .allowList([origin] + listed)
        allowedHosts = Self.loopbackNames.union([Self.bracketed(host)])
    }

    /// An IPv6 host as `Host` carries it: in brackets.
    static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
