internal import COpenSSL
import ParleySync

/// TLS settings shared by many connections: a server's certificate chain and key (PEM files),
/// or a client's trust (the system's CA store, or a private CA file). TLS 1.2 or newer.
///
/// A server context can be reloaded (`reload(certificatePath:keyPath:)`, on SIGHUP): new
/// handshakes use the new pair; connections already open keep theirs.
public final class TLSContext: Sendable {
    /// Which side of the handshake connections made from it play.
    public enum Role: Sendable {
        case server
        case client
    }

    /// The side of the handshake.
    public let role: Role
    /// ALPN protocols offered (client) or accepted (server), most preferred first.
    public let alpn: [String]
    /// Whether a client checks the server's certificate and name (always, except a
    /// benchmark's explicit `insecure` choice).
    public let verifiesPeer: Bool
    private let current: PThreadMutex<SSLContextBox>

    /// A server context from a PEM certificate chain and its private key. Throws if either is
    /// unreadable or they do not match.
    public init(certificatePath: String, keyPath: String, alpn: [String] = []) throws(TLSError) {
        role = .server
        self.alpn = alpn
        verifiesPeer = false
        current = PThreadMutex(try Self.makeServer(certificatePath: certificatePath, keyPath: keyPath, alpn: alpn))
    }

    /// A client context that verifies servers against `caFile` (PEM; one or more CA
    /// certificates) or, when nil, the system's CA store. `verifyPeer: false` accepts any
    /// certificate: for load tests against a throwaway certificate only.
    public init(clientCAFile caFile: String? = nil, alpn: [String] = [], verifyPeer: Bool = true) throws(TLSError) {
        role = .client
        self.alpn = alpn
        verifiesPeer = verifyPeer
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSError("cannot create a TLS context") }
        let box = try SSLContextBox(context: context, alpn: alpn, isServer: false)
        guard parley_ssl_ctx_require_tls12(context) == 1 else { throw TLSError("cannot require TLS 1.2") }
        _ = parley_ssl_ctx_release_buffers(context)
        if verifyPeer {
            parley_ssl_ctx_verify_peer(context)
            if let caFile {
                guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                    ERR_clear_error()
                    throw TLSError("cannot read the CA certificates in \(caFile)")
                }
            } else if SSL_CTX_set_default_verify_paths(context) != 1 {
                ERR_clear_error()
                throw TLSError("cannot load the system's CA certificates")
            }
        }
        current = PThreadMutex(box)
    }

    /// Loads a new certificate chain and key for the handshakes that start from now on.
    /// Throws (and keeps the pair in use) if they are unreadable or do not match.
    public func reload(certificatePath: String, keyPath: String) throws(TLSError) {
        guard role == .server else { throw TLSError("only a server context has a certificate to reload") }
        let box = try Self.makeServer(certificatePath: certificatePath, keyPath: keyPath, alpn: alpn)
        current.withLock { $0 = box }
    }

    /// The context new connections are made from.
    var box: SSLContextBox { current.withLock { $0 } }

    private static func makeServer(certificatePath: String, keyPath: String, alpn: [String]) throws(TLSError) -> SSLContextBox {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("cannot create a TLS context") }
        let box = try SSLContextBox(context: context, alpn: alpn, isServer: true)
        defer { ERR_clear_error() }
        guard parley_ssl_ctx_require_tls12(context) == 1 else { throw TLSError("cannot require TLS 1.2") }
        _ = parley_ssl_ctx_release_buffers(context)
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            throw TLSError("cannot read the PEM certificate chain \(certificatePath)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, parley_ssl_filetype_pem()) == 1 else {
            throw TLSError("cannot read the PEM private key \(keyPath)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSError("the private key \(keyPath) does not match the certificate \(certificatePath)")
        }
        return box
    }
}
