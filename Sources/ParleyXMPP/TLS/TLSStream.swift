internal import COpenSSL

/// The server side of one TLS connection over memory buffers: ciphertext from the socket goes
/// in, plaintext comes out, and whatever OpenSSL wants to send (handshake records, encrypted
/// data) is taken out to be written to the socket. It never blocks and never touches a
/// descriptor, so it runs on the connection's event loop.
///
/// Not thread-safe: owned by one connection on one loop.
final class TLSStream {
    private let ssl: OpaquePointer
    /// Ciphertext in (from the peer), owned by `ssl`.
    private let input: OpaquePointer
    /// Ciphertext out (to the peer), owned by `ssl`.
    private let output: OpaquePointer

    init(context: TLSContext) throws(TLSError) {
        guard let ssl = SSL_new(context.context), let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
            throw TLSError("cannot create a TLS connection")
        }
        self.ssl = ssl
        self.input = input
        self.output = output
        SSL_set_bio(ssl, input, output)
        SSL_set_accept_state(ssl)
    }

    deinit {
        SSL_free(ssl)
    }

    /// Takes ciphertext from the peer; returns the plaintext it completed (possibly none,
    /// during the handshake). Throws if the peer broke the protocol or closed TLS.
    func receive(_ bytes: UnsafeRawBufferPointer) throws(TLSError) -> [UInt8] {
        var offset = 0
        while offset < bytes.count {
            let written = BIO_write(input, bytes.baseAddress! + offset, Int32(min(bytes.count - offset, Int(Int32.max))))
            guard written > 0 else { throw TLSError("cannot buffer TLS input") }
            offset += Int(written)
        }
        var plaintext: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                plaintext.append(contentsOf: buffer[0..<Int(count)])
                continue
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { break }
            ERR_clear_error()
            throw TLSError(error == SSL_ERROR_ZERO_RETURN ? "the peer closed TLS" : "TLS failed (\(error))")
        }
        return plaintext
    }

    /// Encrypts plaintext for the peer (the records come out of `pendingOutput`).
    func send(_ plaintext: [UInt8]) throws(TLSError) {
        guard !plaintext.isEmpty else { return }
        let written = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(plaintext.count) else {
            ERR_clear_error()
            throw TLSError("TLS could not encrypt")
        }
    }

    /// Ciphertext waiting to be written to the socket.
    func pendingOutput() -> [UInt8] {
        let count = parley_bio_pending(output)
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32($0.count)) }
        return read > 0 ? Array(bytes[0..<Int(read)]) : []
    }
}
