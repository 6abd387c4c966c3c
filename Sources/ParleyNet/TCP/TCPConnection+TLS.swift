/// TLS under the handler: plaintext written by the handler is encrypted on its way to the
/// queue, ciphertext read from the socket is decrypted into the loop's read buffer and handed
/// to the handler, and the handshake's records are queued as they come. All on the loop.
extension TCPConnection {
    /// The first byte of every TLS connection: a handshake record (RFC 8446 §5.1).
    private static let handshakeRecordType: UInt8 = 0x16

    /// Switches the connection to TLS from the next byte on; what was queued before still goes
    /// out in the clear (XMPP's `<proceed/>`). A server context waits for the peer's
    /// ClientHello; a client context sends its own now, for `serverName`.
    public func startTLS(_ context: TLSContext, serverName: String? = nil) throws(TLSError) {
        assert(loop.inEventLoop, "TCPConnection used off its event loop")
        guard tls == nil else { throw TLSError("the connection already uses TLS") }
        let engine = try TLSEngine(context: context, serverName: serverName)
        tls = engine
        if !engine.isServer {
            try engine.startHandshake()
            sendTLSOutput()
        }
    }

    /// The ciphertext for `chunk`, or nil when there is none to queue yet (the handshake is
    /// not done: it waits in TLS) or the connection failed.
    func encrypted(_ chunk: ByteChunk) -> ByteChunk? {
        guard let tls else { return tlsSetupError == nil ? chunk : nil }
        guard isActive else { return nil }
        do throws(TLSError) {
            try tls.write(chunk)
        } catch {
            closeNow(.tls(error))
            return nil
        }
        return tls.takeOutput()
    }

    /// Queues what TLS has for the peer (handshake records, alerts) and flushes it this turn.
    func sendTLSOutput() {
        guard let output = tls?.takeOutput() else { return }
        queueRaw(output)
    }

    /// Ciphertext from the socket.
    func receiveTLS(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else { return }
        if tls.isServer && !tls.receivedAny, let first = bytes.first, first != Self.handshakeRecordType {
            refusePlaintext()
            return
        }
        do throws(TLSError) {
            // Copied into TLS's input buffer: the loop's read buffer is free for the plaintext.
            try tls.feed(bytes)
        } catch {
            failTLS(error)
            return
        }
        drainTLS()
    }

    /// Hands the handler the plaintext TLS can make from what it holds, while the handler
    /// wants to read.
    func drainTLS() {
        guard let tls else { return }
        let buffer = loop.readBuffer
        do throws(TLSError) {
            while wantsInput {
                var established = false
                let count = try tls.read(into: buffer, justEstablished: &established)
                if established { try handshakeFinished(tls) }
                guard count > 0 else { break }
                handler?.connection(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        } catch {
            failTLS(error)
            return
        }
        tls.trimInput()
        sendTLSOutput()
    }

    private func handshakeFinished(_ tls: TLSEngine) throws(TLSError) {
        sendTLSOutput()
        try tls.releaseWaiting()
        sendTLSOutput()
        if connectAfterHandshakeIsPending() {
            handler?.connectionDidConnect(self)
        }
    }

    /// A handshake failed or the peer broke TLS: its alert goes out (a server's), then the
    /// connection closes with the reason. A client closes at once, so its caller learns why
    /// without waiting for the linger.
    private func failTLS(_ error: TLSError) {
        guard let tls else { return }
        tls.markFailed()
        if tls.isServer {
            sendTLSOutput()
            close(reason: .tls(error))
        } else {
            closeNow(.tls(error))
        }
    }

    /// A plaintext request on a TLS port: the server's short refusal (for HTTP, a 400 that
    /// says to use https) goes out in the clear, then the connection closes.
    private func refusePlaintext() {
        tls?.markFailed()
        loop.metrics.refusedConnections.add(1, ordering: .relaxed)
        if let reply = server?.options.plaintextReply { queueRaw(reply) }
        close(reason: .tls(TLSError("plaintext on a TLS port")))
    }
}
