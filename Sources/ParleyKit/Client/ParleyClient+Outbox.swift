import Foundation
public import ParleyProtocol

// Sending: every message goes into the outbox (SQLite) first and out from there, in order,
// whenever the client is online, with the same client id on every try.
extension ParleyClient {
    /// Queues a text message for `conversation` and returns its outbox entry at once; it goes
    /// out now if online, otherwise after the next (re)connect, also after an app restart.
    /// `.messageNew` reports it once the server has stored it; `.outboxChanged` reports the
    /// entry's changes.
    @discardableResult
    public func send(text: String, to conversation: ConversationID) throws(ParleyError) -> OutboxEntry {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw ParleyError.server(ProtocolError(.invalidField, "a text message needs text", field: "text"))
        }
        return try enqueue(conversation: conversation, kind: .text, text: text, mediaId: nil)
    }

    /// Queues an image message (an upload of yours, see `uploadImage`).
    @discardableResult
    public func send(imageMediaId mediaId: String, to conversation: ConversationID) throws(ParleyError) -> OutboxEntry {
        try enqueue(conversation: conversation, kind: .image, text: nil, mediaId: mediaId)
    }

    /// Queues a text message and waits until the server has stored it (or refused it). If the
    /// wait ends first (`timeout`, cancellation) the message stays queued and still goes out.
    @discardableResult
    public func sendAndWait(text: String, to conversation: ConversationID,
                            timeout: Duration = .seconds(30)) async throws(ParleyError) -> Message {
        try await waitForAcknowledgement(of: try send(text: text, to: conversation).clientId, timeout: timeout)
    }

    /// Queues an image message (an upload of yours, see `uploadImage`) and waits until the
    /// server has stored it (or refused it: a media id that is not an image of yours, say).
    /// If the wait ends first (`timeout`, cancellation, no connection) the message stays
    /// queued and still goes out.
    @discardableResult
    public func sendAndWait(imageMediaId mediaId: String, to conversation: ConversationID,
                            timeout: Duration = .seconds(30)) async throws(ParleyError) -> Message {
        try await waitForAcknowledgement(of: try send(imageMediaId: mediaId, to: conversation).clientId, timeout: timeout)
    }

    /// The outbox (or the part of it for one conversation), oldest first.
    public func outbox(in conversation: ConversationID? = nil) throws(ParleyError) -> [OutboxEntry] {
        try store.outbox(in: conversation)
    }

    /// Sends a refused entry again.
    public func retry(_ clientId: String) throws(ParleyError) {
        try store.setOutboxFailure(clientId, nil)
        emit(.outboxChanged)
        requestFlush()
    }

    /// Gives up an entry (refused, or no longer wanted). One already on its way may still
    /// arrive.
    public func discard(_ clientId: String) throws(ParleyError) {
        if try store.removeFromOutbox(clientId) {
            resolveAcknowledgement(clientId, .failure(.cancelled))
            emit(.outboxChanged)
        }
    }

    private func enqueue(conversation: ConversationID, kind: MessageKind, text: String?, mediaId: String?) throws(ParleyError) -> OutboxEntry {
        guard token != nil else { throw ParleyError.notSignedIn }
        let entry = OutboxEntry(clientId: UUID().uuidString.lowercased(), conversationId: conversation, kind: kind, text: text,
                                mediaId: mediaId, createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        try store.enqueue(entry)
        emit(.outboxChanged)
        requestFlush()
        return entry
    }

    // MARK: Flushing

    /// Starts sending the outbox if online (a flush in progress picks the request up).
    func requestFlush() {
        flushRequested = true
        guard !flushing, state == .online else { return }
        flushing = true
        Task { await self.flush() }
    }

    private func flush() async {
        defer { flushing = false }
        while flushRequested {
            flushRequested = false
            await drainOutbox()
            await drainActions()
        }
    }

    /// Sends pending entries one at a time, oldest first, while online. One at a time keeps
    /// the order the user wrote them in, whatever happens to any single send.
    private func drainOutbox() async {
        while running, state == .online, let generation = link?.generation {
            guard let entry = try? store.nextPending() else { return }
            try? store.countAttempt(entry.clientId)
            let result = await request(Op.MessageSend.self, entry.sendParameters, on: generation)
            switch result {
            case .success(let message):
                ingest([message])
                // `ingest` drops the entry by the message's client id; make sure of it.
                if (try? store.removeFromOutbox(entry.clientId)) == true { emit(.outboxChanged) }
                resolveAcknowledgement(entry.clientId, .success(message))
            case .failure(.server(let error)) where error.code == .rateLimited:
                try? await Task.sleep(for: .seconds(max(1, error.retryAfterSeconds ?? 1)))
            case .failure(let error) where error.isTransient:
                // The connection is going or the server is struggling: try again after the
                // next reconnect, or shortly on this connection.
                if case .server = error {
                    try? await Task.sleep(for: .seconds(2))
                    continue
                }
                if error == .timedOut { continue }
                return
            case .failure(.server(let error)):
                try? store.setOutboxFailure(entry.clientId, error)
                emit(.outboxChanged)
                resolveAcknowledgement(entry.clientId, .failure(.server(error)))
            case .failure:
                return
            }
        }
    }

    // MARK: Acknowledgements

    func waitForAcknowledgement(of clientId: String, timeout: Duration) async throws(ParleyError) -> Message {
        let result: Result<Message, ParleyError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                acknowledgementWaiters[clientId, default: []].append(continuation)
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.resolveAcknowledgement(clientId, .failure(.timedOut))
                }
            }
        } onCancel: {
            Task { await self.resolveAcknowledgement(clientId, .failure(.cancelled)) }
        }
        return try result.get()
    }

    func acknowledge(_ message: Message) {
        guard let clientId = message.clientId else { return }
        resolveAcknowledgement(clientId, .success(message))
    }

    func resolveAcknowledgement(_ clientId: String, _ result: Result<Message, ParleyError>) {
        guard let waiters = acknowledgementWaiters.removeValue(forKey: clientId) else { return }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    func failAcknowledgementWaiters(_ error: ParleyError) {
        let all = acknowledgementWaiters
        acknowledgementWaiters.removeAll()
        for waiter in all.values.joined() { waiter.resume(returning: .failure(error)) }
    }
}
