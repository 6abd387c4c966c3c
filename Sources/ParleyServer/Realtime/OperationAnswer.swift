import ParleyProtocol

/// Where a handler with no task (`OperationTable.Handler.completion`) answers its request,
/// once: the request's session, back on its loop. A value, not a closure: the session and the
/// request's id travel with it without a context allocated per request.
struct OperationAnswer: Sendable {
    /// The connection the request came on.
    let session: ClientSession
    /// The request's id, which its response carries.
    let id: RequestID

    /// Answers with the result's `data` JSON or a refusal; call on the session's loop.
    func callAsFunction(_ result: Result<[UInt8], ProtocolError>) {
        session.answer(id, result)
    }
}
