import Foundation
import ParleyCore
import Synchronization
import ParleyNet
import ParleyProtocol
import ParleySync
import ParleyXMPP

/// One client's WebSocket at `/v1/ws`: authentication first, then requests answered one at a
/// time in the order they came, and events pushed by the hub.
///
/// An actor whose executor is its connection's event loop: its state is touched only there,
/// and the compiler checks it. The socket calls in synchronously on the loop and enters with
/// the loop's `assumeIsolated(_:_:)` (cheaper than the runtime's, four times a message); the
/// hub, on any thread, hops to the loop first. The hot `message.send` runs with no task
/// (`OperationTable.Handler.completion`): decoded, checked and queued for the store inside
/// the session, on the loop, as the frame is read; the writer hands the commit's outcome back
/// to the loop in one hop (`CompletionHop`), where the session enters again the same way,
/// the message is announced and the answer written. Every other request runs as one async
/// task isolated to the session.
actor ClientSession: WebSocketDelegate, CompletionHop {
    enum State {
        /// Waiting for the `auth` request; closed with 4000 if it does not come in time (the
        /// socket's delegate deadline, `--ws-auth-timeout` after it opened).
        case awaitingAuth
        /// `auth` is being checked.
        case authenticating
        /// Signed in (the session's id packed: no heap object for it on an idle connection).
        case authenticated(SignedInSession)
        case closed
    }

    nonisolated let loop: EventLoop
    /// Identifies this connection to the core (to leave it out of its own echoes).
    nonisolated let token: ConnectionToken
    private let services: ServerServices
    private var bucket: TokenBucket
    /// Set and cleared on the loop, like all of the session's state, but not checked by the
    /// compiler: the hub's deliveries (`deliverOnLoop`) read it on the loop without entering
    /// the actor, whose `assumeIsolated` cost two allocations a delivery (docs/benchmarks.md, (aq)).
    nonisolated(unsafe) private var socket: WebSocketConnection?
    // In layout order (Swift keeps a class's declaration order): `busy` fills the byte after
    // the state (25 bytes signed in), so the object stays at 104 bytes, in the 112-byte
    // malloc chunk (one byte more after `queue` would take it to 128).
    private var state: State = .awaitingAuth
    private var busy = false
    /// Requests waiting while an earlier one is in progress, each its text's bytes.
    private var queue: [[UInt8]] = []
    private static let frames = WebSocketFrameEncoder(role: .server)

    private static let nextToken = Atomic<UInt64>(0)

    /// About what one `auth` leaves freed on the heap: the request's decoding, the session
    /// and account reads, the task that ran them. A burst of sign-ins spreads that between
    /// the sessions' long-lived objects, where glibc keeps it resident (15,000 clients
    /// signing in at once left 5.8 KiB of RSS per connection, 3.6 KiB after a trim: ≈ 2.2 KiB
    /// each), so every sign-in reports it to the `HeapTrimmer`.
    static let signInHeapBytes = 2 * 1024
    /// About what a signed-in idle connection holds (≈ 2.3 KiB under massif), given back to
    /// the trimmer when it closes so that a mass disconnect does not stay resident either.
    static let connectionHeapBytes = 2 * 1024

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// The request rate every connection gets (`--ws-rate`, `--ws-burst`).
    private static func requestRate(_ services: ServerServices) -> TokenBucket.Rate {
        TokenBucket.Rate(perSecond: services.limits.requestsPerSecond, burst: services.limits.requestBurst)
    }

    init(loop: EventLoop, services: ServerServices) {
        self.loop = loop
        self.services = services
        token = ConnectionToken(Self.nextToken.wrappingAdd(1, ordering: .relaxed).newValue)
        bucket = TokenBucket(full: Self.requestRate(services), now: MonotonicClock.now())
    }

    // MARK: WebSocketDelegate (on the loop)

    nonisolated func webSocketDidOpen(_ socket: WebSocketConnection) {
        let socket = UncheckedSocket(socket)
        loop.assumeIsolated(self) { $0.opened(socket.value) }
    }

    nonisolated func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        let frame = Array(text.utf8)
        loop.assumeIsolated(self) { $0.received(frame) }
    }

    /// A whole frame read in place (most requests): copied once into the request's bytes,
    /// without the `String` the default makes first (a second allocation and copy, and a
    /// UTF-8 check the WebSocket already made).
    nonisolated func webSocket(_ socket: WebSocketConnection, didReceiveUTF8 bytes: UnsafeRawBufferPointer) {
        let frame = [UInt8](bytes)
        loop.assumeIsolated(self) { $0.received(frame) }
    }

    nonisolated func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        socket.close(code: .unsupportedData, reason: "Parley speaks JSON text frames")
    }

    nonisolated func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        loop.assumeIsolated(self) { $0.closed() }
    }

    private func opened(_ socket: WebSocketConnection) {
        self.socket = socket
        // On the loop's wheel with the socket's own deadlines, not a `ScheduledTimer`: no timer
        // and closure allocated per socket, and none left on the loop's heap after its cancel
        // until it reaches the top.
        socket.setDelegateDeadline(after: services.limits.webSocketAuthTimeout)
    }

    nonisolated func webSocketDeadlinePassed(_ socket: WebSocketConnection) {
        loop.assumeIsolated(self) { $0.authDeadlinePassed() }
    }

    /// The sign-in deadline: a client still not signed in is closed (one being checked is
    /// left to the check's outcome).
    private func authDeadlinePassed() {
        guard case .awaitingAuth = state else { return }
        socket?.close(code: CloseCodes.authTimeout, reason: "no auth request in time")
    }

    private func received(_ frame: [UInt8]) {
        guard let socket else { return }
        guard queue.count < services.limits.maxQueuedRequestsPerConnection else {
            socket.close(code: .policyViolation, reason: "too many requests in flight")
            return
        }
        guard bucket.take(now: loop.now, at: Self.requestRate(services)) else {
            // Refused without being read further; the id is read only to answer it.
            let id = try? FrameReader.request(frame).id
            send(FrameWriter.failure(id, ProtocolError(.rateLimited, "too many requests on this connection; slow down",
                                                       retryAfterSeconds: 1)))
            return
        }
        // Nothing waiting (requests one at a time, the usual case): handled at once, so the
        // queue never gets a buffer that an idle connection would keep.
        if !busy && queue.isEmpty {
            process(frame)
            return
        }
        queue.append(frame)
        processNext()
    }

    private func closed() {
        services.push.activity.forget(token)
        services.nativeResources.closed(token)
        if case .authenticated(let session) = state, services.hub.remove(self, for: session.userID) {
            let presence = services.presence
            Task { await presence.wentOffline(session.userID) }
        }
        state = .closed
        queue.removeAll()
        socket = nil
        HeapTrimmer.shared.freed(Self.connectionHeapBytes)
    }

    // MARK: Requests

    private func processNext() {
        guard !busy, !queue.isEmpty, socket?.isOpen == true else { return }
        // The buffer stays once a backlog made one: requests that keep coming while one runs
        // reuse it rather than allocate again.
        let frame = queue.removeFirst()
        process(frame)
    }

    /// Handles one request; then the next waiting one, unless it runs on (`busy`).
    private func process(_ frame: [UInt8]) {
        guard socket?.isOpen == true else { return }
        let envelope: RequestEnvelope
        do throws(ProtocolError) {
            envelope = try FrameReader.request(frame)
        } catch {
            send(FrameWriter.failure(nil, error))
            processNext()
            return
        }
        switch state {
        case .awaitingAuth:
            guard envelope.op == Op.Auth.name else {
                send(FrameWriter.failure(envelope.id, ProtocolError(.authRequired, "the first request must be auth")))
                processNext()
                return
            }
            authenticate(envelope, frame)
        case .authenticating:
            // Not reachable: requests wait in the queue while `busy`.
            queue.insert(frame, at: 0)
        case .authenticated(let session):
            run(envelope, frame, session)
        case .closed:
            queue.removeAll()
        }
    }

    private func authenticate(_ envelope: RequestEnvelope, _ frame: [UInt8]) {
        state = .authenticating
        busy = true
        let accounts = services.accounts
        // The device name only names a Jabber resource: not looked up with the gateway off.
        let wantsDevice = services.nativeResources.isObserved
        Task {
            let outcome: Result<(AuthenticatedSession, Account, String?), ProtocolError>
            do throws(ProtocolError) {
                let token = try FrameReader.parameters(Op.Auth.Parameters.self, in: frame, envelope).token
                let session = try await accounts.authenticate(token: token)
                let account = try await accounts.account(of: session.userID)
                outcome = .success((session, account, wantsDevice ? await accounts.deviceName(of: session) : nil))
            } catch {
                outcome = .failure(error)
            }
            self.finishAuthentication(envelope.id, outcome)
        }
    }

    private func finishAuthentication(_ id: RequestID, _ outcome: Result<(AuthenticatedSession, Account, String?), ProtocolError>) {
        busy = false
        HeapTrimmer.shared.freed(Self.signInHeapBytes)
        guard case .authenticating = state else { return }
        switch outcome {
        case .success(let (session, account, deviceName)):
            socket?.setDelegateDeadline(after: nil)
            state = .authenticated(SignedInSession(session))
            // Before the hub: the presence event of a first connection finds the resource.
            if services.nativeResources.isObserved {
                services.nativeResources.signedIn(session.userID, local: XMPPDirectory.localPart(of: account.profile), token: token,
                                                  sessionID: session.sessionID, deviceName: deviceName)
            }
            if services.hub.add(self, for: session.userID) {
                let presence = services.presence
                Task { await presence.cameOnline(session.userID) }
            }
            send(FrameWriter.success(id, AuthReply(user: account)))
            // The user's devices and Jabber clients already here (later changes come as events).
            for resource in services.nativeResources.presences(of: session.userID) {
                if let frame = FrameWriter.event(.resourcePresence(resource)) { send(frame) }
            }
            processNext()
        case .failure(let error):
            state = .awaitingAuth
            send(FrameWriter.failure(id, error))
            socket?.close(code: CloseCodes.authFailed, reason: "authentication failed")
        }
    }

    private func run(_ envelope: RequestEnvelope, _ frame: [UInt8], _ session: SignedInSession) {
        guard let handler = services.operations[envelope.op] else {
            send(FrameWriter.failure(envelope.id, ProtocolError(.unknownOperation, "no operation '\(envelope.op)'")))
            processNext()
            return
        }
        busy = true
        let context = OperationContext(signedIn: session, connection: self)
        switch handler {
        case .completion(let start):
            // No task: started here, on the loop; the answer comes back on the loop once (the
            // writer's hop, or at once for a refusal), and enters the session again there.
            start(context, envelope, frame, OperationAnswer(session: self, id: envelope.id))
        case .task(let run):
            // Isolated to this session and started at once; the handler's work (decoding, the
            // services, encoding a large answer) runs on the pool, costing the loop nothing:
            // the task prefers the pool, which `@concurrent` code follows.
            Task.immediate(executorPreference: globalConcurrentExecutor) {
                let answer = await Self.runOffLoop(run, context, envelope, frame)
                self.finish(answer)
            }
        }
    }

    /// Runs `run` away from the session (`@concurrent`): on the global pool, the executor its
    /// task prefers.
    @concurrent
    private static func runOffLoop(_ run: nonisolated(nonsending) @Sendable (OperationContext, RequestEnvelope, [UInt8]) async -> [UInt8],
                                   _ context: OperationContext, _ envelope: RequestEnvelope, _ frame: [UInt8]) async -> [UInt8] {
        await run(context, envelope, frame)
    }

    /// Answers the request in progress and starts the next one.
    private func finish(_ answer: [UInt8]) {
        busy = false
        send(answer)
        processNext()
    }

    /// Answers the request in progress (`id`) from a handler with no task (`OperationAnswer`);
    /// call on the loop.
    nonisolated func answer(_ id: RequestID, _ result: Result<[UInt8], ProtocolError>) {
        loop.assumeIsolated(self) { $0.answerOnLoop(id, result) }
    }

    /// Answers the request in progress and starts the next one. A success's text is written
    /// in place, in its frame, around the data; a refusal's is assembled in the thread's
    /// scratch bytes and copied once, into its frame.
    private func answerOnLoop(_ id: RequestID, _ result: Result<[UInt8], ProtocolError>) {
        busy = false
        if let socket {
            let frame = switch result {
            case .success(let data):
                Self.frames.frame(opcode: .text, payloadCount: FrameWriter.successCount(id, dataCount: data.count)) { payload in
                    JSONCursor.fill(payload) { FrameWriter.writeSuccess(id, dataJSON: data, to: &$0) }
                }
            case .failure(let error):
                ScratchBytes.with { text in
                    FrameWriter.appendFailure(id, error, to: &text)
                    return Self.frames.frame(opcode: .text, payload: text)
                }
            }
            socket.send(encodedFrame: frame)
        }
        processNext()
    }

    /// Sends a frame's JSON text.
    private func send(_ text: [UInt8]) {
        socket?.send(encodedFrame: Self.frames.frame(opcode: .text, payload: text))
    }

    // MARK: CompletionHop (any thread)

    /// Queues `work` on the connection's loop: a store's writer hands a send's outcome back
    /// here (one closure on the loop's queue, and a wake-up if it sleeps).
    nonisolated func hop(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }

    // MARK: From the hub (any thread)

    /// Queues an already-encoded event frame, flushed within `window` (zero: this turn).
    nonisolated func deliver(_ frame: ByteChunk, flushWithin window: Duration = .zero) {
        // On this loop already (a sender on the same loop): no task and no wake-up. Events
        // from different threads were never ordered among themselves.
        if loop.inEventLoop {
            deliverOnLoop(frame, flushWithin: window)
        } else {
            loop.execute { self.deliverOnLoop(frame, flushWithin: window) }
        }
    }

    /// Queues an already-encoded event frame, flushed within `window` (zero: this turn);
    /// call on `loop`. The callers check that once for all of a loop's recipients
    /// (`LoopRecipients.deliver`), so here it is only asserted.
    nonisolated func deliverOnLoop(_ frame: ByteChunk, flushWithin window: Duration = .zero) {
        assert(loop.inEventLoop, "not on the session's event loop")
        socket?.send(encodedFrame: frame, flushWithin: window)
    }

    /// Closes this WebSocket if it signed in with `sessionID` (that session was signed out).
    nonisolated func closeIfSignedIn(with sessionID: String, code: WebSocketCloseCode, reason: String) {
        loop.execute {
            self.loop.assumeIsolated(self) { session in
                guard case .authenticated(let signedIn) = session.state, signedIn.sessionID.matches(sessionID) else { return }
                session.socket?.close(code: code, reason: reason)
            }
        }
    }
}

/// A socket handed from the loop's synchronous callback into the session, on the same loop.
private struct UncheckedSocket: @unchecked Sendable {
    // Invariant: made and unwrapped on the connection's loop within one call (`loop.assumeIsolated`).
    let value: WebSocketConnection
    init(_ value: WebSocketConnection) { self.value = value }
}

/// Parley's own WebSocket close codes (the 4000–4999 range is for applications).
enum CloseCodes {
    /// No `auth` request arrived in time.
    static let authTimeout = WebSocketCloseCode(4000)
    /// `auth` failed, or the session was signed out.
    static let authFailed = WebSocketCloseCode(4001)
}
