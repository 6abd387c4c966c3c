internal import COpenSSL

/// One TLS connection over memory buffers: ciphertext from the socket goes in, plaintext
/// comes out into a buffer the caller owns, and what OpenSSL has for the peer (handshake
/// records, alerts, encrypted data) is taken out as a chunk to queue on the socket. It never
/// blocks and never touches a descriptor, so it runs on the connection's event loop.
///
/// Not thread-safe: owned by one `TCPConnection`, used only on its loop.
final class TLSEngine {
    /// Keeps the context (and its ALPN list) alive for as long as this connection uses it.
    private let box: SSLContextBox
    private let ssl: OpaquePointer
    let isServer: Bool
    /// Set once the handshake finished; application data flows from then on.
    private(set) var isEstablished = false
    /// Plaintext written before the handshake finished (a client's first request).
    private var waiting: [ByteChunk] = []
    /// Whether any ciphertext came from the peer yet (a server checks the first byte).
    var receivedAny = false
    /// The connection broke TLS (or sent plaintext): nothing more is said in TLS.
    private var failed = false

    /// An idle connection's memory buffers are swapped for fresh ones once they grew past this.
    private static let keptBufferBytes = 1024

    /// A connection from `context`; a client sends `serverName` (SNI) and checks the server's
    /// certificate against it when the context verifies.
    init(context: TLSContext, serverName: String?) throws(TLSError) {
        box = context.box
        isServer = context.role == .server
        guard let ssl = SSL_new(box.context) else { throw TLSError("cannot create a TLS connection") }
        self.ssl = ssl
        guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError("cannot create TLS buffers")
        }
        SSL_set_bio(ssl, input, output)
        if isServer {
            SSL_set_accept_state(ssl)
            return
        }
        SSL_set_connect_state(ssl)
        if let serverName, !serverName.isEmpty {
            let isAddress = SocketAddress.isNumericHost(serverName)
            // SNI carries host names only (RFC 6066 §3), never addresses.
            if !isAddress { _ = parley_ssl_set_server_name(ssl, serverName) }
            if context.verifiesPeer {
                let ok = isAddress ? parley_ssl_set_ip(ssl, serverName) : parley_ssl_set_host(ssl, serverName)
                guard ok == 1 else {
                    SSL_free(ssl)
                    throw TLSError("cannot check the certificate against \(serverName)")
                }
            }
        }
    }

    deinit {
        SSL_free(ssl)
    }

    /// The ALPN protocol the handshake chose, if any.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Starts a client's handshake (its ClientHello comes out of `takeOutput`).
    func startHandshake() throws(TLSError) {
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return
        }
        try check(result)
    }

    /// Hands ciphertext from the peer to OpenSSL.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(TLSError) {
        receivedAny = true
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let written = BIO_write(SSL_get_rbio(ssl), base, Int32(bytes.count))
        guard written == Int32(bytes.count) else { throw TLSError("cannot buffer TLS input") }
    }

    /// Decrypts into `buffer`: the number of plaintext bytes, or 0 when OpenSSL needs more
    /// ciphertext. Drives the handshake as a side effect (`justEstablished` tells when it
    /// finished). Throws when the peer broke the protocol, failed verification or closed TLS.
    func read(into buffer: UnsafeMutableRawBufferPointer, justEstablished: inout Bool) throws(TLSError) -> Int {
        let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if !isEstablished && SSL_is_init_finished(ssl) == 1 {
            isEstablished = true
            justEstablished = true
        }
        if count > 0 { return Int(count) }
        try check(count)
        return 0
    }

    /// Encrypts `chunk` (its records come out of `takeOutput`); before the handshake has
    /// finished it waits and goes out with `releaseWaiting`.
    func write(_ chunk: ByteChunk) throws(TLSError) {
        guard isEstablished else {
            waiting.append(chunk)
            return
        }
        let result = chunk.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard result == Int32(chunk.count) else {
            ERR_clear_error()
            throw TLSError("TLS could not encrypt")
        }
    }

    /// Encrypts what waited for the handshake.
    func releaseWaiting() throws(TLSError) {
        let chunks = waiting
        waiting = []
        for chunk in chunks { try write(chunk) }
    }

    /// After a protocol error: no close_notify is sent then.
    func markFailed() {
        failed = true
    }

    /// Queues a close_notify alert (a polite end of TLS) for `takeOutput`.
    func shutdown() {
        guard isEstablished, !failed else { return }
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Ciphertext waiting to be written to the socket, as one chunk, or nil.
    func takeOutput() -> ByteChunk? {
        let output = SSL_get_wbio(ssl)
        let pending = parley_bio_pending(output)
        guard pending > 0 else { return nil }
        let chunk = ByteChunk.filled(capacity: pending) { buffer in
            max(0, Int(BIO_read(output, buffer.baseAddress, Int32(buffer.count))))
        }
        releaseBufferIfLarge(output, isInput: false)
        return chunk.count > 0 ? chunk : nil
    }

    /// After a burst of input has been decrypted: frees the input buffer if it grew large, so
    /// that an idle connection keeps little memory.
    func trimInput() {
        releaseBufferIfLarge(SSL_get_rbio(ssl), isInput: true)
    }

    private func releaseBufferIfLarge(_ bio: OpaquePointer?, isInput: Bool) {
        guard let bio, parley_bio_pending(bio) == 0 else { return }
        var memory: UnsafeMutablePointer<BUF_MEM>?
        _ = parley_bio_get_mem_ptr(bio, &memory)
        guard let memory, memory.pointee.max > Self.keptBufferBytes, let fresh = BIO_new(BIO_s_mem()) else { return }
        // The SSL object owns both BIOs; setting one frees the old.
        if isInput {
            SSL_set0_rbio(ssl, fresh)
        } else {
            SSL_set0_wbio(ssl, fresh)
        }
    }

    /// Turns a failed SSL_read/SSL_do_handshake result into "wait for more" or an error.
    private func check(_ result: Int32) throws(TLSError) {
        let error = SSL_get_error(ssl, result)
        switch error {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return
        case SSL_ERROR_ZERO_RETURN:
            throw TLSError("the peer closed TLS")
        default:
            let verify = parley_ssl_verify_result(ssl)
            if !isServer && verify != 0 {
                let reason = String(cString: X509_verify_cert_error_string(verify))
                ERR_clear_error()
                throw TLSError("certificate verification failed: \(reason)")
            }
            let code = ERR_get_error()
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            ERR_clear_error()
            let detail = code == 0 ? "error \(error)" : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw TLSError("TLS handshake failed: \(detail)")
        }
    }
}
