internal import COpenSSL

/// The server's TLS settings for STARTTLS: its certificate chain and key (PEM files), TLS 1.2
/// or newer. Made once at start-up; shared by every stream.
public final class TLSContext: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `context` is configured in `init` and only read
    // after (OpenSSL's SSL_CTX is safe to share for creating connections).
    let context: OpaquePointer

    /// Loads the certificate chain and the private key; throws if either is unusable or they
    /// do not match.
    public init(certificatePath: String, keyPath: String) throws(TLSError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSError("cannot create a TLS context") }
        self.context = context
        guard parley_ssl_ctx_require_tls12(context) == 1 else { throw TLSError("cannot require TLS 1.2") }
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            throw TLSError("cannot read the certificate chain \(certificatePath)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, parley_ssl_filetype_pem()) == 1 else {
            throw TLSError("cannot read the private key \(keyPath)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else { throw TLSError("the private key does not match the certificate") }
    }

    deinit {
        SSL_CTX_free(context)
    }
}

/// Why TLS could not be set up or went wrong.
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
