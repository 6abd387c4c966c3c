import ParleyCore
import ParleyNet
import ParleyProtocol
import Synchronization

/// One client's XMPP stream (RFC 6120): stream header, SASL, restart, resource binding, then
/// stanzas mapped onto Parley's services, and Parley's events rendered as stanzas.
///
/// An actor pinned to its connection's event loop (the loop is its executor): all of its
/// state is isolated to the loop's thread, which the compiler checks. The loop's socket
/// callbacks and timers enter it with `assumeIsolated`; events from other threads come
/// through `loop.execute`, in order. Stanzas are handled one at a time in the order they came
/// (the next starts when the previous one's service calls have finished), like native
/// requests, by a task isolated to the session that prefers the loop (`processNext`), so it
/// runs and resumes there after every `await`.
actor XMPPSession: ConnectionHandler, EventReceiver {
    let loop: EventLoop
    let token: ConnectionToken
    let services: XMPPServices
    /// The features' handlers, by the payloads they answer (one table for every session).
    let handlers: XMPPHandlerTable
    /// The stream's id (RFC 6120 §4.7.3): 12 random bytes, kept as they are and written as
    /// Base64 with each stream header. Its 16 characters are one past what a `String` holds
    /// inline, so keeping the text would cost every session a heap object.
    private let streamIDBytes: (UInt64, UInt32)
    var streamID: String {
        withUnsafeBytes(of: streamIDBytes) { Base64.encode(UnsafeRawBufferPointer(rebasing: $0[0..<12])) }
    }
    /// Whether the peer is on this machine (PLAIN and unencrypted streams are fine then).
    let isLoopback: Bool
    let clientAddress: String
    /// Nil once closed; written to by the output side (`XMPPSession+Output.swift`).
    var connection: TCPConnection?
    var parser: XMLStreamParser
    /// Parsed and not yet handled; a stream restart or error drops what is left.
    var queue: [XMLStreamEvent] = []
    /// Where the stanza queue stands (`processNext`).
    private var processing = StanzaProcessing.idle
    var headerSent = false
    /// Puts the parser away once the stream has been silent between stanzas for
    /// `parserReleaseDelay` (see `armParserRelease`); nil while not armed.
    private var releaseTimer: ScheduledTimer?
    /// Whether bytes came since `releaseTimer` was armed.
    private var readSinceArmed = false
    /// Whether the parser is put away, and how long the stream may be silent before it is.
    private var parserUpkeep = ParserUpkeep()
    /// Whether the last stanza taken was a chat message sent with no task (`ParserUpkeep`).
    private var lastStanzaWasChat = false
    /// Events waiting while a user's address is looked up, so that order is kept.
    var heldEvents: [GatewayEvent] = []
    /// Whether a lookup for `heldEvents` is running (or a resumption is being set up).
    var resolving = false
    /// Whether 1:1 messages go to this stream as they come (see `ChatDelivery`).
    var chatDelivery = ChatDelivery.awaitingPresence
    /// Stream management (XEP-0198): whether stanzas sent are counted and kept until the
    /// client acknowledges them, how many were sent, and those not acknowledged yet.
    var counting = false
    var sentStanzas: UInt32 = 0
    var unacknowledged: [(sequence: UInt32, text: String)] = []
    /// The stream ended by `</stream:stream>` or a stream error: not to be resumed.
    var endedCleanly = false
    /// A resumable stream whose connection broke waits for its client this long.
    var resumeTimer: ScheduledTimer?
    /// A new stream took this one over; this one only winds down.
    var handedOver = false
    /// Sign-in, binding and what the stanzas learn.
    var state = SessionState()

    private static let nextToken = Atomic<UInt64>(0)

    init(connection: TCPConnection, services: XMPPServices, handlers: XMPPHandlerTable) {
        self.connection = connection
        loop = connection.loop
        self.services = services
        self.handlers = handlers
        // Apart from the native connections' numbers: the top bit marks an XMPP session.
        token = ConnectionToken((1 << 63) | Self.nextToken.wrappingAdd(1, ordering: .relaxed).newValue)
        streamIDBytes = CryptoRandom.bytes(12).withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) }
        parser = XMLStreamParser(limits: services.configuration.limits)
        let host = connection.remoteAddress?.host ?? ""
        clientAddress = host
        isLoopback = host.hasPrefix("127.") || host == "::1" || host == "::ffff:127.0.0.1"
        // Direct TLS (XEP-0368): encrypted from the first byte, so no STARTTLS is offered.
        if connection.isTLS { state.encrypted = true }
    }

    /// The connection's loop: everything the session does runs on its thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Starts the sign-in deadline; called on the loop as the connection is accepted.
    ///
    /// The deadline is the connection's handler deadline, swept by the loop's `DeadlineWheel`
    /// (`connectionDeadlinePassed`): no timer object or closure per session. A cancelled
    /// `ScheduledTimer` stayed in the loop's timer heap until its time came, so every stream
    /// signed in within `authTimeout` held one.
    func start() {
        connection?.setHandlerDeadline(after: services.configuration.authTimeout)
    }

    /// Sign-in, binding and what the stanzas learn.
    struct SessionState {
        var phase: Phase = .awaitingStream
        /// Set by SASL.
        var account: Account?
        /// Set by binding.
        var resource: String?
        var saslFailures = 0
        /// Whether the client has sent its initial presence.
        var available = false
        /// Whether the resource is available now (its latest presence without `to` was not
        /// `unavailable`): only then does it get contacts' presence (RFC 6121 §4.2.2).
        var present = false
        /// 1:1 conversations and the friend at the other end.
        var directPeers: [ConversationID: UserID] = [:]
        /// The newest peer message the sign-in catch-up sent in each 1:1 conversation: a live
        /// event for one of those (its sender's announce can reach this loop after the catch-up
        /// read it from the store) is not sent again.
        var caughtUpThrough: [ConversationID: Int64] = [:]
        /// Local parts of the addresses of friends and other users seen (the user's own is
        /// the account's: `localPart(of:)`).
        var localParts: [UserID: String] = [:]
        /// Whether the hub knows this session.
        var registered = false
        /// Whether the stream is encrypted (direct TLS, or since STARTTLS).
        var encrypted = false
        /// Stanzas handled since stream management was enabled (XEP-0198); nil: not enabled.
        var handledStanzas: UInt32?
        /// The id a client resumes this stream with, if it asked for resumption.
        var resumptionID: String?
        /// Group chats this session has joined (XEP-0045), by conversation.
        var joined: [ConversationID: JoinedRoom] = [:]
        /// Whether the client asked for copies of what the user sends elsewhere (XEP-0280).
        var carbons = false
        /// Delivered markers of messages handed over still to move.
        var readMarks = ReadMarkQueue()
        /// The oldest peer message per 1:1 conversation that came live before the initial
        /// presence: held back for the catch-up, which sends it even though its delivered
        /// marker moved (the stream was online).
        var heldBeforePresence: [ConversationID: Int64] = [:]
        /// Client state indication (XEP-0352): presence held while the client is inactive.
        var inactivity = InactiveHold()
        /// The caps (`node#ver`, XEP-0115) of the client's latest presence, and the server's
        /// disco#info queries of caps not known yet, by iq id.
        var capsKey: String?
        var capsQueries: [String: String] = [:]
        /// The last published PEP items wait for the client's caps to be answered.
        var lastPublishedWaiting = false
    }

    /// When a stream gets the 1:1 messages sent to its user. Until its initial presence it
    /// is not available (RFC 6121 §8.5.3): messages wait, unread, and come with the others
    /// that waited once it says it is. While those are being read and sent, new events are
    /// held, so a message that is both in that catch-up and live is sent once, in order.
    enum ChatDelivery {
        case awaitingPresence
        case catchingUp
        case live
    }

    /// Where the stanza queue stands: nothing under way, a task taking it, or a send with no
    /// task waiting for its commit (`MessageHandler.startDirect`), which goes on with the
    /// queue from its completion.
    enum StanzaProcessing {
        case idle
        /// `drainQueue`'s task, or the loop's read, is taking stanzas in order.
        case handling
        /// A send with no task is being started; its completion may come at once (a refusal).
        case startingSend
        /// The send being started was refused at once and answered: go on with the queue.
        case sendAnsweredAtOnce
        /// A send with no task waits for its commit; nothing else is taken until it is answered.
        case awaitingSend
    }

    enum Phase {
        /// Waiting for `<stream:stream>` (first, or after SASL's restart).
        case awaitingStream
        /// Features offered; waiting for `<auth>` (or, signed in, for the bind).
        case negotiating
        /// A SASL mechanism is waiting for the client's next response. Boxed (`indirect`):
        /// a SCRAM step holds the exchange and the candidate's account and credential, several
        /// hundred bytes that every session would otherwise keep inline for its whole life
        /// while only sign-in uses them.
        indirect case sasl(SASLStep)
        /// Resource bound: stanzas flow.
        case bound
        case closed
    }

    enum SASLStep {
        /// `<auth>` came without an initial response; it comes as `<response>`.
        case awaitingInitialResponse(mechanism: String)
        /// SCRAM's challenge was sent. `candidate` is nil when the user is unknown (the proof
        /// will fail whatever it is).
        case scram(SCRAMExchange, SCRAMCandidate?)
    }

    var domain: String { services.directory.domain }

    // MARK: ConnectionHandler (called on the loop)

    nonisolated func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        nonisolated(unsafe) let bytes = bytes
        assumeIsolated { $0.read(bytes, from: connection) }
    }

    nonisolated func connectionWriteQueueDidDrain(_ connection: TCPConnection) {}

    nonisolated func connectionShouldShutDown(_ connection: TCPConnection) {
        assumeIsolated { $0.fail(.systemShutdown, "the server is shutting down") }
    }

    nonisolated func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        assumeIsolated { $0.closed() }
    }

    /// The sign-in deadline (`start`) passed: the only handler deadline a stream sets, and
    /// cleared once it is signed in and bound (`cancelSignInDeadline`).
    nonisolated func connectionDeadlinePassed(_ connection: TCPConnection) {
        assumeIsolated { session in
            guard session.state.account == nil || session.state.resource == nil else { return }
            session.fail(.policyViolation, "sign in and bind a resource sooner")
        }
    }

    private func read(_ bytes: UnsafeRawBufferPointer, from connection: TCPConnection) {
        parserUpkeep.read(at: .now, keepDelay: services.configuration.parserKeepDelay)
        do throws(XMLStreamError) {
            // Plaintext either way: TLS (direct or after STARTTLS) is the connection's.
            queue += try parser.feed(bytes)
        } catch {
            fail(error.condition, error.text)
            return
        }
        if queue.count > services.configuration.maxQueuedStanzas { connection.pauseReading() }
        readSinceArmed = true
        if releaseTimer == nil { armParserRelease() }
        processNext()
    }

    /// An idle stream's XML parser (expat's buffers, ≈ 10 KiB) is most of what the session
    /// holds, so it is freed once no byte has come for `parserReleaseDelay` and the stream is
    /// between stanzas; the next byte makes a new one. One timer per session at most, armed
    /// again while bytes keep coming, so a busy stream keeps its parser and pays nothing
    /// per stanza. A stream that comes back soon after (several stanzas a second) keeps its
    /// parser for `parserKeepDelay` of silence instead (`ParserUpkeep`).
    private func armParserRelease() {
        readSinceArmed = false
        let configuration = services.configuration
        let delay = parserUpkeep.delay(release: configuration.parserReleaseDelay, keep: configuration.parserKeepDelay)
        releaseTimer = loop.schedule(after: delay) {
            self.assumeIsolated { $0.parserReleaseDue() }
        }
    }

    private func parserReleaseDue() {
        guard connection != nil else { return }
        releaseTimer = nil
        if readSinceArmed {
            armParserRelease()
        } else if parser.releaseIfIdle() {
            parserUpkeep.released(at: .now, afterChat: lastStanzaWasChat)
            // Freed between the session's long-lived objects, the parser's memory goes
            // back to the system only when the heap is trimmed.
            HeapTrimmer.shared.freed(XMLStreamParser.approximateParserBytes)
            // Also the queue's storage, which keeps the capacity of its busiest moment.
            if queue.isEmpty { queue = [] }
        }
    }

    private func closed() {
        connection = nil
        releaseTimer?.cancel()
        releaseTimer = nil
        queue.removeAll()
        guard !handedOver else {
            services.clientStateChanged(token, true)
            return
        }
        if !endedCleanly && state.resumptionID != nil && state.registered {
            // Still signed in and receiving (kept for the client) until it resumes or the
            // time runs out; nobody reads it meanwhile, so it counts as away for push
            // notifications (Web Push and XEP-0357), as an inactive stream does.
            services.clientStateChanged(token, false)
            resumeTimer = loop.schedule(after: services.configuration.resumeTimeout) { [weak self] in
                self?.assumeIsolated { session in
                    guard !session.handedOver else { return }
                    session.finish()
                }
            }
            return
        }
        finish()
    }

    /// The session is over: out of the hub (and presence, if it was the user's last
    /// connection) and out of the resumable ones.
    func finish() {
        state.phase = .closed
        services.clientStateChanged(token, true)
        let user = state.registered ? state.account?.profile.id : nil
        let resumptionID = state.resumptionID
        state.registered = false
        state.resumptionID = nil
        if let resumptionID { services.resumable.remove(resumptionID, ifHeldBy: self) }
        if user != nil, let me { resourceEnded(me: me) }
        if let user, services.registry.remove(self, for: user) {
            let presence = services.presence
            Task { await presence.wentOffline(user) }
        }
    }

    // MARK: Processing

    /// Starts handling what is queued unless that is under way.
    ///
    /// One task, isolated to the session and started at once on the loop (as a native
    /// request's, `ClientSession.run`), takes the queue in order: a stanza whose handler never
    /// waits is handled within the read that brought it, and one that waits for the store
    /// resumes here with one job on the loop. The loop is the task's executor preference as
    /// well, so the services' nonisolated code runs on it too. (A task started later, not
    /// isolated to the session, cost a job on the loop to start, one to enter the session,
    /// and two more around every call into nonisolated async code.) Stanzas that finish at
    /// once are taken by the same task, one after the other, so tasks never nest.
    ///
    /// A 1:1 chat message to a friend (the hot path) needs no task at all: it is started from
    /// here or from the task (`takeWithoutTask`), and the queue waits for its commit, going on
    /// from the send's completion on the loop (`directSendFinished`).
    private func processNext() {
        guard processing == .idle, connection?.isActive == true, !queue.isEmpty else { return }
        processing = .handling
        guard !takeWithoutTask() else { return }
        guard connection?.isActive == true, !queue.isEmpty else {
            processing = .idle
            return
        }
        Task.immediate(executorPreference: loop) {
            await self.drainQueue()
        }
    }

    /// Starts the sends with no task at the head of the queue, in order (`MessageHandler.
    /// startDirect`). True when one waits for its commit (its completion goes on with the
    /// queue); false when the queue is empty or its head needs a task.
    private func takeWithoutTask() -> Bool {
        while connection?.isActive == true, case .stanza(let stanza)? = queue.first, case .bound = state.phase,
              stanza.name == "message", stanza.namespace == Namespace.client, let me {
            processing = .startingSend
            guard handlers.messages.startDirect(stanza, me: me, context: self) else {
                processing = .handling
                return false
            }
            state.handledStanzas = state.handledStanzas.map { $0 &+ 1 }
            lastStanzaWasChat = true
            takeFirst()
            if processing == .startingSend {
                processing = .awaitingSend
                return true
            }
            // Refused before the write and answered already: on with the next.
            processing = .handling
        }
        return false
    }

    /// The send with no task has been answered: the next stanza's turn.
    func directSendFinished() {
        switch processing {
        case .startingSend:
            processing = .sendAnsweredAtOnce
        case .awaitingSend:
            processing = .idle
            processNext()
        case .idle, .handling, .sendAnsweredAtOnce:
            assertionFailure("a send with no task finished while none was under way")
        }
    }

    /// Removes the queue's first event, reading again once the queue is short enough.
    @discardableResult
    private func takeFirst() -> XMLStreamEvent {
        let event = queue.removeFirst()
        if queue.count <= services.configuration.maxQueuedStanzas / 2 { connection?.resumeReading() }
        return event
    }

    /// Handles the queued events in order until none is left, the connection is gone, or a
    /// send with no task waits for its commit.
    private func drainQueue() async {
        while connection?.isActive == true, !queue.isEmpty {
            if takeWithoutTask() { return }
            guard connection?.isActive == true, !queue.isEmpty else { break }
            lastStanzaWasChat = false
            switch takeFirst() {
            case .streamOpened(let attributes, let defaultNamespace):
                openStream(attributes, defaultNamespace: defaultNamespace)
            case .streamClosed:
                endedCleanly = true
                send(raw: "</stream:stream>")
                // Closes after the write above.
                connection?.close()
            case .stanza(let stanza):
                await handle(stanza)
            }
        }
        processing = .idle
    }
}
