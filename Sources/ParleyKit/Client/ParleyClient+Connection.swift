import Foundation
import ParleyProtocol

// The connection that stays up by itself: connect, `auth`, catch up, online; on a drop, wait
// (exponential backoff with jitter) and do it all again.
extension ParleyClient {
    /// How one connection attempt ended.
    enum AttemptOutcome {
        /// It failed or dropped; `wasOnline` resets the backoff.
        case ended(OfflineReason, wasOnline: Bool)
        /// The server refused the session: sign in again.
        case refused(String)
        /// `stop()` was called meanwhile.
        case stopped
    }

    /// Starts connecting (and keeps reconnecting) if an account is signed in. Harmless when
    /// already started.
    public func start() {
        guard !running else { return }
        guard token != nil else {
            publish(.offline(reason: .signedOut, retryIn: nil))
            return
        }
        running = true
        run += 1
        let thisRun = run
        supervisor = Task { await self.supervise(run: thisRun) }
    }

    /// Closes the connection and stops reconnecting (an app going to the background, say).
    /// Requests waiting for the connection fail with `.offline(.stopped)`; the outbox keeps
    /// its messages for the next `start()`.
    public func stop() {
        halt(reason: .stopped)
    }

    /// Skips the rest of the current backoff wait and tries at once (a "retry now" button).
    public func reconnectNow() {
        wakeFromBackoff()
    }

    func halt(reason: OfflineReason) {
        running = false
        supervisor?.cancel()
        supervisor = nil
        dropLink(reason: reason, closeSocket: true)
        wakeFromBackoff()
        publish(.offline(reason: reason, retryIn: nil))
        resumeOnlineWaiters(.failure(.offline(reason)))
    }

    private func isCurrent(_ thisRun: Int) -> Bool {
        running && run == thisRun && !Task.isCancelled
    }

    private func supervise(run thisRun: Int) async {
        var failures = 0
        while isCurrent(thisRun), let token {
            publish(.connecting(attempt: failures + 1))
            let outcome = await attempt(token: token, run: thisRun)
            guard isCurrent(thisRun) else { return }
            switch outcome {
            case .stopped:
                return
            case .refused(let message):
                sessionRefused(message)
                return
            case .ended(let reason, let wasOnline):
                failures = wasOnline ? 1 : failures + 1
                let delay = configuration.reconnect.delay(afterFailures: failures)
                publish(.offline(reason: reason, retryIn: delay))
                if configuration.offlineWait == .zero {
                    resumeOnlineWaiters(.failure(.offline(reason)))
                }
                await sleepUnlessWoken(delay)
            }
        }
    }

    /// One connection: open, `auth`, catch up, then stay online until it closes.
    private func attempt(token: String, run thisRun: Int) async -> AttemptOutcome {
        let socket: any TransportSocket
        do {
            socket = try await configuration.transport.connect(to: webSocketURL)
        } catch {
            return .ended(.unreachable(error.message), wasOnline: false)
        }
        guard isCurrent(thisRun), self.token == token else {
            socket.close(code: 1000)
            return .stopped
        }
        generation += 1
        let thisGeneration = generation
        link = Link(generation: thisGeneration, socket: socket, reader: nil)
        link?.reader = Task { [weak self] in
            for await input in socket.inputs {
                guard let self else { return }
                switch input {
                case .text(let text): await self.receive(text, generation: thisGeneration)
                case .closed(let code, let reason): await self.socketClosed(generation: thisGeneration, code: code, reason: reason)
                }
            }
            await self?.socketClosed(generation: thisGeneration, code: 1006, reason: "")
        }

        let auth: Result<AuthReply, ParleyError> = await request(Op.Auth.self, AuthParameters(token: token), on: thisGeneration)
        switch auth {
        case .success(let reply):
            adoptAccount(reply.user)
        case .failure(.server(let error)) where error.code == .unauthorized:
            dropLink(reason: .sessionRefused(error.message), closeSocket: true)
            return .refused(error.message)
        case .failure(let error):
            return endAttempt(thisGeneration, error)
        }
        if let error = await catchUp(on: thisGeneration) {
            return endAttempt(thisGeneration, error)
        }
        guard isCurrent(thisRun), link?.generation == thisGeneration else {
            return isCurrent(thisRun) ? .ended(lastCloseReason, wasOnline: false) : .stopped
        }
        publish(.online)
        resumeOnlineWaiters(.success(()))
        requestFlush()
        let reason = await waitForClose(of: thisGeneration)
        return .ended(reason, wasOnline: true)
    }

    private func endAttempt(_ generation: Int, _ error: ParleyError) -> AttemptOutcome {
        if link?.generation == generation {
            dropLink(reason: .unreachable(error.message), closeSocket: true)
            return .ended(.unreachable(error.message), wasOnline: false)
        }
        return .ended(lastCloseReason, wasOnline: false)
    }

    /// The server no longer knows this session (signed out from another device): forget it.
    private func sessionRefused(_ message: String) {
        running = false
        supervisor = nil
        token = nil
        me = nil
        try? store.clearAccountData()
        publish(.offline(reason: .sessionRefused(message), retryIn: nil))
        resumeOnlineWaiters(.failure(.notSignedIn))
        failAcknowledgementWaiters(.notSignedIn)
        emit(.signedOut)
    }

    // MARK: The link

    /// The reader saw the socket close.
    func socketClosed(generation closed: Int, code: Int, reason: String) {
        guard link?.generation == closed else { return }
        let why: OfflineReason
        switch code {
        case 1001: why = .serverShuttingDown
        case 4001: why = .sessionRefused(reason)
        default: why = .connectionLost(code: code, reason: reason)
        }
        dropLink(reason: why, closeSocket: false)
    }

    /// Forgets the current link: requests in flight fail with `.connectionLost`, the
    /// supervisor's wait ends.
    func dropLink(reason: OfflineReason, closeSocket: Bool) {
        guard let current = link else { return }
        link = nil
        lastCloseReason = reason
        if closeSocket { current.socket.close(code: 1000) }
        for (id, request) in pending where request.generation == current.generation {
            pending[id] = nil
            request.timeout.cancel()
            request.continuation.resume(returning: .failure(.connectionLost))
        }
        if let waiter = closeWaiter, waiter.generation == current.generation {
            closeWaiter = nil
            waiter.continuation.resume(returning: reason)
        }
    }

    private func waitForClose(of generation: Int) async -> OfflineReason {
        guard link?.generation == generation else { return lastCloseReason }
        return await withCheckedContinuation { continuation in
            closeWaiter = (generation, continuation)
        }
    }

    // MARK: Backoff

    private func sleepUnlessWoken(_ delay: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let timer = Task { [weak self] in
                try? await Task.sleep(for: delay)
                await self?.wakeFromBackoff()
            }
            backoffSleep = (continuation, timer)
        }
    }

    func wakeFromBackoff() {
        guard let sleep = backoffSleep else { return }
        backoffSleep = nil
        sleep.timer.cancel()
        sleep.continuation.resume()
    }

    // MARK: Waiting for the connection

    /// The current link's generation once online; waits up to `offlineWait` for it.
    func waitUntilOnline() async throws(ParleyError) -> Int {
        let deadline = ContinuousClock.now + configuration.offlineWait
        while true {
            if state == .online, let link { return link.generation }
            guard token != nil else { throw ParleyError.notSignedIn }
            guard running else { throw ParleyError.offline(.stopped) }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw ParleyError.offline(currentOfflineReason) }
            // A timeout here is not the caller's error: the loop reports `offline` with the reason.
            if case .failure(let error) = await waitForOnline(timeout: remaining), error != .timedOut { throw error }
        }
    }

    private var currentOfflineReason: OfflineReason {
        if case .offline(let reason, _) = state { return reason }
        return lastCloseReason
    }

    private func waitForOnline(timeout: Duration) async -> Result<Void, ParleyError> {
        nextWaiterID += 1
        let id = nextWaiterID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                onlineWaiters[id] = continuation
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.resumeOnlineWaiter(id, .failure(.timedOut))
                }
            }
        } onCancel: {
            Task { await self.resumeOnlineWaiter(id, .failure(.cancelled)) }
        }
    }

    private func resumeOnlineWaiter(_ id: Int, _ result: Result<Void, ParleyError>) {
        onlineWaiters.removeValue(forKey: id)?.resume(returning: result)
    }

    func resumeOnlineWaiters(_ result: Result<Void, ParleyError>) {
        let waiters = onlineWaiters
        onlineWaiters.removeAll()
        for waiter in waiters.values { waiter.resume(returning: result) }
    }
}
