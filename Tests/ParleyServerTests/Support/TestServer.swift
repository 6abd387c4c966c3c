import Foundation
import FoundationNetworking
import ParleyNet
@testable import ParleyServer

/// A real `ParleyServer` on a free loopback port with its own temporary data directory.
final class TestServer: @unchecked Sendable {
    // Immutable after init; `server` is thread-safe.
    let server: ParleyServer
    let dataDirectory: String
    var port: Int { server.port }
    var base: String { "http://127.0.0.1:\(port)" }

    init(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) throws {
        dataDirectory = NSTemporaryDirectory() + "parley-test-" + UUID().uuidString
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.loops = 2
        configuration.passwordCost = "minimum"
        // No XMPP listener unless a test asks for one (its default port is fixed).
        configuration.xmppPort = 0
        configuration.webRoot = dataDirectory + "/no-web"
        // Every test client comes from 127.0.0.1; tests of these limits set their own.
        configuration.registrationsPerAddress = 1_000_000
        configuration.loginFailuresPerAddress = 1_000_000
        adjust(&configuration)
        server = try ParleyServer(configuration: configuration, logger: Logger(label: "test", minimumLevel: .error))
    }

    func stop() {
        server.shutdown()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// The lines of the SMS outbox, decoded.
    func smsOutbox() throws -> [[String: String]] {
        let text = (try? String(contentsOfFile: dataDirectory + "/sms-outbox.jsonl", encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map {
            let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            return object.mapValues { "\($0)" }
        }
    }

    // MARK: HTTP

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorField: String? { (json["error"] as? [String: Any])?["field"] as? String }
    }

    /// Sends a request; `body` may be a JSON object (encoded), raw `Data`, or nil.
    func request(_ method: String, _ path: String, token: String? = nil, json: Any? = nil, raw: Data? = nil,
                 headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let raw {
            request.httpBody = raw
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Registers a user and returns (token, user id).
    func register(_ username: String, password: String = "password123") async throws -> (token: String, id: String) {
        let reply = try await request("POST", "/v1/auth/register", json: ["username": username, "password": password])
        guard reply.status == 201, let token = reply.json["token"] as? String,
              let user = reply.json["user"] as? [String: Any], let id = user["id"] as? String else {
            throw TestFailure("register \(username): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
        }
        return (token, id)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
