import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ParleyProtocol

/// The HTTP half of the protocol (sign-in, sign-out, devices, uploads) over URLSession; on
/// Linux, `https://` goes through ParleyNet's TLS instead (`ParleyNetTransport.exchange`),
/// which checks the certificate against the same CAs as the WebSocket (`caFile`).
struct HTTPClient: Sendable {
    let base: URL
    let session: URLSession
    let userAgent: String
    let timeout: Duration
    /// The transport whose TLS `https://` uses on Linux.
    let transport: any WebSocketTransport

    init(base: URL, userAgent: String, timeout: Duration, transport: any WebSocketTransport) {
        self.transport = transport
        self.base = base
        self.userAgent = userAgent
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        session = URLSession(configuration: configuration)
    }

    /// Sends a JSON request and decodes a JSON answer.
    func send<Answer: Decodable>(_ method: String, _ path: String, json body: (some Encodable)?, token: String?,
                                 as answer: Answer.Type) async throws(ParleyError) -> Answer {
        var bodyData: Data?
        if let body {
            do { bodyData = try JSONEncoder().encode(body) } catch { throw ParleyError.invalidResponse("cannot encode the request: \(error)") }
        }
        let data = try await exchange(method, path, body: bodyData, contentType: bodyData == nil ? nil : "application/json", token: token)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw ParleyError.invalidResponse("\(method) \(path): \(error)")
        }
    }

    /// Sends a request and returns the body of a 2xx answer; a refusal becomes
    /// `ParleyError.server` with the protocol's error object.
    func exchange(_ method: String, _ path: String, body: Data?, contentType: String?, token: String?,
                  headers: [String: String] = [:]) async throws(ParleyError) -> Data {
        guard let url = URL(string: path, relativeTo: base) else { throw ParleyError.transport("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let status: Int
        #if canImport(ParleyNet)
        if url.scheme == "https", let secure = transport as? ParleyNetTransport {
            (status, data) = try await secure.exchange(method: method, url: url.absoluteURL,
                                                       headers: (request.allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) },
                                                       body: body)
            return try Self.check(status: status, data: data, method: method, path: path)
        }
        #endif
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch is CancellationError {
            throw ParleyError.cancelled
        } catch {
            throw ParleyError.transport("\(method) \(url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw ParleyError.invalidResponse("not an HTTP answer") }
        status = http.statusCode
        return try Self.check(status: status, data: data, method: method, path: path)
    }

    /// The body of a 2xx answer; a refusal becomes `ParleyError.server`.
    private static func check(status: Int, data: Data, method: String, path: String) throws(ParleyError) -> Data {
        guard (200..<300).contains(status) else {
            if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) { throw ParleyError.server(body.error) }
            throw ParleyError.transport("\(method) \(path): HTTP \(status)")
        }
        return data
    }
}

/// `{}` for requests without a body.
struct NoBody: Encodable {}
