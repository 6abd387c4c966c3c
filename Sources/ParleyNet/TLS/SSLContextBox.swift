internal import COpenSSL

/// One OpenSSL context (`SSL_CTX`) and the ALPN list its callback reads. Connections keep the
/// box they were made from, so a certificate reload never frees a context a handshake in
/// progress still uses.
final class SSLContextBox: @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `context` is fully configured in `init` and only
    // read after (OpenSSL allows creating connections from one SSL_CTX on many threads);
    // `alpnWire` is written in `init` only.
    let context: OpaquePointer
    /// ALPN protocols in wire format plus a NUL, for the server's selection callback.
    private let alpnWire: UnsafeMutablePointer<UInt8>?

    init(context: OpaquePointer, alpn: [String], isServer: Bool) throws(TLSError) {
        self.context = context
        var wire: [UInt8] = []
        for name in alpn {
            let bytes = Array(name.utf8)
            guard !bytes.isEmpty, bytes.count < 256 else { throw TLSError("bad ALPN protocol name \(name)") }
            wire.append(UInt8(bytes.count))
            wire += bytes
        }
        guard !wire.isEmpty else {
            alpnWire = nil
            return
        }
        let stored = UnsafeMutablePointer<UInt8>.allocate(capacity: wire.count + 1)
        stored.initialize(from: wire, count: wire.count)
        stored[wire.count] = 0
        alpnWire = stored
        if isServer {
            parley_ssl_ctx_set_alpn_select(context, stored)
        } else if SSL_CTX_set_alpn_protos(context, stored, UInt32(wire.count)) != 0 {
            throw TLSError("cannot set the ALPN protocols")
        }
    }

    deinit {
        SSL_CTX_free(context)
        alpnWire?.deallocate()
    }
}
