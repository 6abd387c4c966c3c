/// Serves HTTP/1.1 on one connection: decodes requests, answers them strictly in order
/// (pipelining), keeps the connection alive when allowed, and upgrades to WebSocket.
final class HTTPServerConnection: ConnectionHandler, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: used only on `connection.loop`, like the connection;
    // a file piece read on the blocking pool comes back there (`BlockingPool.submit(on:)`)
    // before it touches anything.
    private let connection: TCPConnection
    /// Its server's configuration, shared.
    private let shared: SharedHTTPServerConfiguration
    private var configuration: HTTPServer.Configuration { shared.value }
    private let responder: HTTPResponder
    private let decoder: HTTPRequestDecoder
    /// Requests received and not yet answered.
    private var waiting: [HTTPRequest] = []
    /// The request with the responder now.
    private var inFlight: (sequence: Int, request: HTTPRequest)?
    private var nextSequence = 0
    /// How the request stream ended, to act on once the requests before it are answered.
    private var terminal: HTTPDecoderOutput.Terminal?
    /// Set by a graceful shutdown: answer what is in flight, then close.
    private var closing = false
    /// A response body being sent from a file: the next request waits until it is all out.
    private var sendingFile: (file: HTTPResponseFile, sent: Int, keepAlive: Bool)?
    /// Whether the next piece of `sendingFile` is being read on the blocking pool.
    private var readingPiece = false
    /// The deadline on the request being read, and what it watches.
    private var deadline: ScheduledTimer?
    private var watched = Watched.nothing
    /// A streamed body's head waiting for `HTTPBodyStreaming.admission`, and whether the
    /// check runs yet (it starts once every earlier request is answered, so that a
    /// `100 Continue` or a refusal comes after their responses).
    private var admission: (head: HTTPRequestHead, running: Bool)?

    /// What the deadline is for: a head, or a body that started at a time with a count.
    private enum Watched: Equatable {
        case nothing
        case head
        case body(startedAt: UInt64, bytesAtStart: Int)
    }

    /// More pipelined requests than this pause reading until the backlog shrinks.
    private static let maxWaitingRequests = 16

    init(connection: TCPConnection, configuration: SharedHTTPServerConfiguration, responder: HTTPResponder) {
        self.connection = connection
        shared = configuration
        self.responder = responder
        decoder = HTTPRequestDecoder(limits: configuration.value.limits, streaming: configuration.value.bodyStreaming)
    }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        take(decoder.feed(bytes))
    }

    private func take(_ output: HTTPDecoderOutput) {
        watchProgress()
        waiting.append(contentsOf: output.requests)
        if let end = output.terminal {
            terminal = end
            connection.pauseReading()
        } else if let head = output.awaitingAdmission {
            admission = (head, false)
            connection.pauseReading()
        } else if waiting.count > Self.maxWaitingRequests {
            connection.pauseReading()
        }
        processNext()
    }

    /// Asks `HTTPBodyStreaming.admission` about the waiting body, off the loop.
    private func startAdmission() {
        guard let pending = admission, !pending.running else { return }
        guard let check = configuration.bodyStreaming?.admission else {
            admission = nil
            take(decoder.admit())
            return
        }
        admission = (pending.head, true)
        let head = pending.head
        guard hostIsAllowed(head) else {
            admissionSettled(responder.errorResponse(status: .misdirectedRequest, reason: "this server does not answer for that host name"))
            return
        }
        let context = HTTPRequestContext(loop: connection.loop, remoteAddress: connection.remoteAddress,
                                         clientAddress: clientAddress(of: head), owner: self, sequence: -1)
        Task {
            let refusal = await check(head, context)
            context.settleAdmission(refusal)
        }
    }

    /// The admission's answer, on the loop: refuse and close, or (after `100 Continue` when
    /// the client waits for it) read the body.
    func admissionSettled(_ refusal: HTTPResponse?) {
        guard let pending = admission, pending.running, connection.isActive else { return }
        admission = nil
        if let refusal {
            decoder.refuseAdmission()
            stopWatching()
            write(refusal, for: pending.head, keepAlive: false)
            connection.close()
            return
        }
        if pending.head.version == .http1_1, pending.head.headers.containsToken("100-continue", in: "Expect") {
            connection.write(ByteChunk.of(string: "HTTP/1.1 100 Continue\r\n\r\n"))
        }
        connection.resumeReading()
        take(decoder.admit())
    }

    /// Puts a deadline on the request being read (its head, or the rate of its body), and
    /// none between requests: a peer cannot hold a connection by trickling bytes.
    private func watchProgress() {
        switch decoder.progress {
        case .betweenRequests:
            stopWatching()
        case .head:
            guard watched != .head else { return }
            stopWatching()
            watched = .head
            deadline = connection.loop.schedule(after: configuration.headerTimeout) { [weak self] in
                self?.headDeadlinePassed()
            }
        case .body(let bytes):
            if case .body = watched { return }
            stopWatching()
            watched = .body(startedAt: MonotonicClock.now(), bytesAtStart: bytes)
            scheduleBodyCheck()
        }
    }

    private func stopWatching() {
        deadline?.cancel()
        deadline = nil
        watched = .nothing
    }

    /// While the server itself holds the connection back (a response in progress, a backlog
    /// of requests), the peer is not the slow one.
    private var serverIsBusy: Bool { inFlight != nil || sendingFile != nil || !waiting.isEmpty || admission != nil }

    private func headDeadlinePassed() {
        deadline = nil
        guard connection.isActive, watched == .head, decoder.progress == .head else { return }
        if serverIsBusy {
            watched = .nothing
            watchProgress()
            return
        }
        timedOut("the request's headers took longer than \(configuration.headerTimeout) to arrive")
    }

    private func scheduleBodyCheck() {
        deadline = connection.loop.schedule(after: .seconds(1)) { [weak self] in self?.checkBodyRate() }
    }

    private func checkBodyRate() {
        deadline = nil
        guard connection.isActive, case .body(let startedAt, let bytesAtStart) = watched,
              case .body(let bytes) = decoder.progress else { return }
        let elapsed = Double(MonotonicClock.now() &- startedAt) / 1e9
        let grace = Double(configuration.headerTimeout.nanoseconds) / 1e9
        if elapsed >= grace && !serverIsBusy
            && Double(bytes - bytesAtStart) < Double(configuration.minimumBodyBytesPerSecond) * elapsed {
            timedOut("the request's body arrived slower than \(configuration.minimumBodyBytesPerSecond) bytes a second")
            return
        }
        scheduleBodyCheck()
    }

    /// Answers 408 and closes: nothing of a request that never arrived whole is processed.
    private func timedOut(_ reason: String) {
        stopWatching()
        connection.pauseReading()
        waiting.removeAll()
        write(responder.errorResponse(status: .requestTimeout, reason: reason), for: nil, keepAlive: false)
        connection.close()
    }

    private func processNext() {
        guard inFlight == nil, sendingFile == nil, connection.isActive else { return }
        guard !waiting.isEmpty else {
            if admission != nil {
                startAdmission()
                return
            }
            handleTerminal()
            return
        }
        let request = waiting.removeFirst()
        if terminal == nil && admission == nil && waiting.count <= Self.maxWaitingRequests / 2 { connection.resumeReading() }
        nextSequence += 1
        inFlight = (nextSequence, request)
        let context = HTTPRequestContext(loop: connection.loop, remoteAddress: connection.remoteAddress,
                                         clientAddress: clientAddress(of: request.head), owner: self, sequence: nextSequence)
        guard hostIsAllowed(request.head) else {
            complete(sequence: nextSequence, with: responder.errorResponse(status: .misdirectedRequest, reason: "this server does not answer for that host name"))
            return
        }
        responder.respond(to: request, context: context)
    }

    func complete(sequence: Int, with response: HTTPResponse) {
        guard let current = inFlight, current.sequence == sequence, connection.isActive else { return }
        inFlight = nil
        // An upgrade or error still waiting after this request keeps the connection open for it.
        let keepAlive = current.request.head.keepAlive && !closing
        write(response, for: current.request.head, keepAlive: keepAlive)
        if let file = response.bodyFile, file.length > 0,
           HTTPResponseEncoder.sendsBody(status: response.status, headRequest: current.request.head.method == .head) {
            sendingFile = (file, 0, keepAlive)
            sendFilePieces()
            return
        }
        finishResponse(keepAlive: keepAlive)
    }

    /// After a response is all queued: close, or go on with the next request.
    private func finishResponse(keepAlive: Bool) {
        if !keepAlive || closing {
            connection.close(reason: closing ? .shutdown : .local)
            return
        }
        processNext()
    }

    /// Reads the next piece of the file being sent, on the blocking pool, while fewer than
    /// two pieces wait to be written; the rest follow as the peer takes them
    /// (`connectionWriteQueueDidDrain`), so memory stays at a few pieces and the loop never
    /// waits for the disk.
    private func sendFilePieces() {
        guard let sending = sendingFile, !readingPiece, connection.isActive,
              connection.queuedBytes < 2 * HTTPResponseFile.pieceBytes else { return }
        readingPiece = true
        sending.file.read(at: sending.sent, count: HTTPResponseFile.pieceBytes, on: connection.loop) { [weak self] result in
            self?.pieceRead(result)
        }
    }

    /// A piece came back from the pool (on the loop): queue it and go on, or end.
    private func pieceRead(_ result: Result<ByteChunk, any Error>) {
        readingPiece = false
        // Closed meanwhile: `sendingFile` is gone and the piece goes with it.
        guard let sending = sendingFile, connection.isActive else { return }
        // The head promised a length that can no longer be kept (a read error, or the file
        // shrank under us): only closing tells.
        guard case .success(let piece) = result, piece.count > 0 else {
            sendingFile = nil
            connection.close()
            return
        }
        connection.write(piece)
        let sent = sending.sent + piece.count
        if sent >= sending.file.length {
            sendingFile = nil
            finishResponse(keepAlive: sending.keepAlive)
            return
        }
        sendingFile = (sending.file, sent, sending.keepAlive)
        sendFilePieces()
    }

    func connectionWriteQueueDidDrain(_ connection: TCPConnection) {
        // Only asks the pool for the next piece: nothing is written from inside the flush
        // that called us.
        sendFilePieces()
    }

    private func write(_ response: HTTPResponse, for head: HTTPRequestHead?, keepAlive: Bool) {
        var response = response
        if let hsts = configuration.strictTransportSecurity {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: hsts)
        }
        let isHead = head?.method == .head
        connection.write(HTTPResponseEncoder.encodeHead(response, keepAlive: keepAlive, headRequest: isHead,
                                                        requestVersion: head?.version ?? .http1_1))
        if let body = response.body, HTTPResponseEncoder.sendsBody(status: response.status, headRequest: isHead) {
            connection.write(body)
        }
        connection.loop.metrics.countResponse(status: response.status.code)
    }

    private func handleTerminal() {
        guard let end = terminal else { return }
        terminal = nil
        switch end {
        case .failure(let error):
            write(responder.errorResponse(status: error.status, reason: error.reason), for: nil, keepAlive: false)
            connection.close()
        case .upgrade(let request, let leftover):
            upgrade(request, leftover: leftover)
        }
    }

    private func clientAddress(of head: HTTPRequestHead) -> String {
        let peer = connection.remoteAddress?.host ?? "unknown"
        return configuration.clientAddresses.clientAddress(peer: peer, headers: head.headers)
    }

    /// Whether `Host` names this server (see `HTTPServer.Configuration.allowedHosts`).
    private func hostIsAllowed(_ head: HTTPRequestHead) -> Bool {
        guard let allowed = configuration.allowedHosts, let host = head.headers[first: "Host"] else { return true }
        return allowed.contains(Self.hostName(of: host))
    }

    /// `host[:port]` without the port, lowercased; IPv6 keeps its brackets.
    static func hostName(of authority: String) -> String {
        let lowered = authority.lowercasedASCII()
        if lowered.hasPrefix("[") {
            return lowered.firstIndex(of: "]").map { String(lowered[...$0]) } ?? lowered
        }
        return String(lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    private func refuse(_ status: HTTPStatus, _ reason: String, for head: HTTPRequestHead, extraHeaders: HTTPHeaders = [:]) {
        var response = responder.errorResponse(status: status, reason: reason)
        for field in extraHeaders { response.headers.replaceOrAdd(name: field.name, value: field.value) }
        write(response, for: head, keepAlive: false)
        connection.close()
    }

    private func upgrade(_ request: HTTPRequest, leftover: [UInt8]) {
        if request.head.method == .connect {
            refuse(.methodNotAllowed, "CONNECT is not supported: this is not a proxy", for: request.head)
            return
        }
        guard request.head.headers.containsToken("websocket", in: "Upgrade") else {
            refuse(.notImplemented, "only WebSocket upgrades are supported", for: request.head)
            return
        }
        guard hostIsAllowed(request.head) else {
            refuse(.misdirectedRequest, "this server does not answer for that host name", for: request.head)
            return
        }
        switch WebSocketHandshake.validate(request: request.head, originPolicy: configuration.originPolicy,
                                           scheme: configuration.originScheme) {
        case .failure(let error):
            var extra = error.response.headers
            extra.remove(name: "Content-Type")
            extra.remove(name: "Content-Length")
            refuse(error.status, error.reason, for: request.head, extraHeaders: extra)
        case .success(let accept):
            let context = HTTPRequestContext(loop: connection.loop, remoteAddress: connection.remoteAddress,
                                             clientAddress: clientAddress(of: request.head), owner: self, sequence: -1)
            guard let delegate = responder.webSocketDelegate(for: request.head, context: context) else {
                refuse(.notFound, "no WebSocket endpoint at this path", for: request.head)
                return
            }
            write(accept, for: request.head, keepAlive: true)
            connection.resumeReading()
            _ = WebSocketConnection(connection: connection, role: .server, sharedOptions: shared.webSocket,
                                    delegate: delegate, leftover: leftover)
        }
    }

    func connectionShouldShutDown(_ connection: TCPConnection) {
        closing = true
        if inFlight == nil && sendingFile == nil { connection.close(reason: .shutdown) }
    }

    func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        stopWatching()
        decoder.close()
        sendingFile = nil
        waiting.removeAll()
        inFlight = nil
        admission = nil
    }
}
