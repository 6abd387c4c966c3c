import Foundation
import ParleyProtocol

// Requests on the WebSocket: an id each, the response matched to it, a timeout, and frames
// routed to the waiting caller or to the event handling.
extension ParleyClient {
    /// Performs any operation of the protocol: waits for the connection (up to
    /// `offlineWait`), sends `{"id", "op", "data"}` and decodes the response's `data` as
    /// `Result`. The typed methods (`friends()`, `createGroup(name:)`…) are built on it; it
    /// is public for operations newer than this SDK.
    public func call<Parameters: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ op: String, _ parameters: Parameters, as answer: Answer.Type = Answer.self
    ) async throws(ParleyError) -> Answer {
        let generation = try await waitUntilOnline()
        return try await request(op, parameters, on: generation).get()
    }

    /// Sends one request on the link `generation` (without waiting for "online": `auth` and
    /// the catch-up run before it).
    func request<Parameters: Encodable & Sendable, Answer: Decodable & Sendable>(
        _ op: String, _ parameters: Parameters, on generation: Int, as answer: Answer.Type = Answer.self
    ) async -> Result<Answer, ParleyError> {
        guard let link, link.generation == generation else { return .failure(.connectionLost) }
        nextRequestID += 1
        let id = nextRequestID
        let text: String
        do {
            text = String(decoding: try JSONEncoder().encode(OutgoingRequest(id: .number(id), op: op, data: parameters)), as: UTF8.self)
        } catch {
            return .failure(.invalidResponse("cannot encode \(op): \(error)"))
        }
        let timeout = configuration.requestTimeout
        let socket = link.socket
        let raw: Result<Data, ParleyError> = await withTaskCancellationHandler {
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
        return raw.flatMap { data in
            do {
                return .success(try JSONDecoder().decode(IncomingData<Answer>.self, from: data).data)
            } catch {
                return .failure(.invalidResponse("\(op): \(error)"))
            }
        }
    }

    /// Hands a response (or a failure) to the request `id`, if it still waits.
    func resolve(_ id: Int64, _ result: Result<Data, ParleyError>) {
        guard let request = pending.removeValue(forKey: id) else { return }
        request.timeout.cancel()
        request.continuation.resume(returning: result)
    }

    /// A frame from link `generation`: a response for a waiting request, or an event.
    func receive(_ text: String, generation: Int) {
        guard link?.generation == generation else { return }
        let data = Data(text.utf8)
        guard let frame = try? JSONDecoder().decode(IncomingFrame.self, from: data) else { return }
        if let event = frame.event {
            handleEvent(event, data)
            return
        }
        guard case .number(let id)? = frame.id else { return }
        if frame.ok == true {
            resolve(id, .success(data))
        } else {
            resolve(id, .failure(.server(frame.error ?? ProtocolError(.internalError, "a refusal without an error object"))))
        }
    }
}
