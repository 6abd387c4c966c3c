import Foundation
import ParleyNet
import ParleySync
import Synchronization

/// Creates the users a scenario needs through the HTTP API (`POST /v1/auth/register`), a few
/// at a time, so a scenario runs against an empty server.
enum UserRegistry {
    /// A registered user.
    struct User: Sendable {
        var id: String
        var token: String
    }

    /// Registers `count` users named `<prefix><n>`; `threads` requests at a time.
    static func register(count: Int, prefix: String, host: String, port: Int, tls: TLSContext? = nil,
                         threads: Int = 4) throws(BenchError) -> [User] {
        let users = PThreadMutex<[User?]>(Array(repeating: nil, count: count))
        let failures = PThreadMutex<[String]>([])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let body = try! JSONSerialization.data(withJSONObject: ["username": "\(prefix)\(index)", "password": "bench-password-1"])
                do {
                    let reply = try HTTPPost.send(host: host, port: port, path: "/v1/auth/register", json: body, tls: tls)
                    let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
                    guard reply.status == 201, let token = object?["token"] as? String,
                          let id = (object?["user"] as? [String: Any])?["id"] as? String else {
                        failures.withLock { $0.append("register: HTTP \(reply.status) \(String(decoding: reply.body.prefix(200), as: UTF8.self))") }
                        continue
                    }
                    users.withLock { $0[index] = User(id: id, token: token) }
                } catch {
                    failures.withLock { $0.append("register: \(error)") }
                }
            }
        }
        let problems = failures.withLock { $0 }
        guard problems.isEmpty else {
            throw .failed("\(problems.count) of \(count) registrations failed; first: \(problems[0])")
        }
        return users.withLock { $0.compactMap { $0 } }
    }

    /// A short random word, so that the users of one run do not collide with an earlier run's.
    static func runPrefix() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return "b" + String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
    }
}
