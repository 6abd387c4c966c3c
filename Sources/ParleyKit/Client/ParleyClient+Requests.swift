import Foundation
public import ParleyProtocol

// Requests on the WebSocket: an id each, the response matched to it, a timeout, and frames
// routed to the waiting caller or to the event handling.
extension ParleyClient {
    /// Performs an operation of the protocol (`Op`): waits for the connection (up to
    /// `offlineWait`), sends the request and decodes the response as the operation's result.
    /// The typed methods (`friends()`, `createGroup(name:)`…) are built on it.
    public func call<O: APIOperation>(_ operation: O.Type, _ parameters: O.Parameters) async throws(ParleyError) -> O.Result {
        let generation = try await waitUntilOnline()
        return try await request(operation, parameters, on: generation).get()
    }

    /// Performs an operation this SDK has no type for (one newer than it), by name.
    public func call<Parameters: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ op: String, _ parameters: Parameters, as answer: Answer.Type = Answer.self
    ) async throws(ParleyError) -> Answer {
        let generation = try await waitUntilOnline()
        guard let data = WireJSON.encode(parameters) else { throw ParleyError.invalidResponse("cannot encode \(op)") }
        return try await exchange(op, data, on: generation, as: answer).get()
    }

    /// Sends one request on the link `generation` (without waiting for "online": `auth` and
    /// the catch-up run before it).
    func request<O: APIOperation>(_ operation: O.Type, _ parameters: O.Parameters, on generation: Int) async -> Result<O.Result, ParleyError> {
        guard let data = WireJSON.encode(parameters) else { return .failure(.invalidResponse("cannot encode \(O.name)")) }
        return await exchange(O.name, data, on: generation, as: O.Result.self)
    }

    /// Sends `{"id", "op", "data"}` and waits for its answer, decoded as `Answer`.
    private func exchange<Answer: Decodable>(_ op: String, _ data: [UInt8], on generation: Int,
                                             as answer: Answer.Type) async -> Result<Answer, ParleyError> {
        guard let link, link.generation == generation else { return .failure(.connectionLost) }
        nextRequestID += 1
        let id = nextRequestID
        let text = String(decoding: FrameWriter.request(op: op, id: .number(id), dataJSON: data), as: UTF8.self)
        let timeout = configuration.requestTimeout
        let socket = link.socket
        let raw: Result<(Data, Range<Int>?), ParleyError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    await self?.resolve(id, .failure(.timedOut))
                }
                pending[id] = PendingRequest(generation: generation, continuation: continuation, timeout: timer)
                socket.send(text: text)
            }
        } onCancel: {
            Task { await self.resolve(id, .failure(.cancelled)) }
        }
        return raw.flatMap { frame, range in
            do {
                return .success(try FrameReader.data(Answer.self, in: frame, range))
            } catch {
                return .failure(.invalidResponse("\(op): \(error)"))
            }
        }
    }

    /// Hands a response (or a failure) to the request `id`, if it still waits.
    func resolve(_ id: Int64, _ result: Result<(Data, Range<Int>?), ParleyError>) {
        guard let request = pending.removeValue(forKey: id) else { return }
        request.timeout.cancel()
        request.continuation.resume(returning: result)
    }

    /// A frame from link `generation`: a response for a waiting request, or an event.
    func receive(_ text: String, generation: Int) {
        guard link?.generation == generation else { return }
        let frame = Data(text.utf8)
        switch FrameReader.serverFrame(frame) {
        case .event(let name, let range)?:
            // Within version 1 new events are additive: an unknown or unreadable one is ignored.
            if let event = try? ServerEvent.decode(name: name, in: frame, range) { handle(event) }
        case .response(.number(let id)?, let result)?:
            resolve(id, result.map { (frame, $0) }.mapError(ParleyError.server))
        case .response?, nil:
            return
        }
    }
}
