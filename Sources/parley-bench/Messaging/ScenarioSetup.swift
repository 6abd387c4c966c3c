import ParleyProtocol
import Foundation
import ParleyNet

/// Brings a scenario's clients to the point where measured traffic can flow: users registered
/// and signed in, friendships made, a group created and joined (Parley); topics subscribed
/// (relay, NATS). Every step goes through the servers' own APIs, so each scenario runs
/// against an empty server. Failures are errors, never skipped.
enum ScenarioSetup {
    /// Where a Parley server's HTTP API and WebSocket are.
    static let parleyPath = "/v1/ws"

    /// The path of each dialect's WebSocket.
    static func path(for dialect: Dialect) -> String {
        switch dialect {
        case .parley: return parleyPath
        case .relay: return "/relay"
        case .nats: return "/"
        }
    }

    /// Opens every client of `set`; Parley clients are registered first and sign in after.
    /// Returns the number of clients that failed to open (each also in `set.errors`).
    static func connect(_ set: ConnectionSet, target: MessagingSettings.Target, sources: [SocketAddress]) throws -> Int {
        let count = set.connections.count
        if target.dialect == .parley {
            let started = ContinuousClock.now
            let users = try UserRegistry.register(count: count, prefix: UserRegistry.runPrefix(),
                                                  host: hostText(target.address), port: target.address.port, tls: set.tls)
            for (client, user) in zip(set.connections, users) {
                client.userID = user.id
                client.token = user.token
            }
            Console.line("  registered \(Format.count(count)) users in \(Format.significant((ContinuousClock.now - started).seconds)) s")
        }
        // Client i on node i mod n (one node: all on it).
        var opened = 0
        for (node, address) in target.nodes.enumerated() {
            let mine = set.connections.filter { $0.index % target.nodes.count == node }
            opened += set.open(mine, target: address, path: path(for: target.dialect), sources: sources)
        }
        guard opened == count else {
            throw BenchError.failed("\(count - opened) of \(count) connections failed to open: "
                + ErrorTally.lines(set.errors.snapshot).prefix(3).joined(separator: "; "))
        }
        if target.dialect == .parley {
            try expectAll(set.perform { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.request(Op.Auth.self, AuthParameters(token: client.token)) { result in
                    done(result.failureReason)
                }
            }, what: "sign in")
        }
        return count - opened
    }

    /// Parley: makes clients 2i and 2i+1 friends; both send into their 1:1 conversation.
    /// Relay: each subscribes to its own topic and sends to its partner's.
    static func pairUp(_ set: ConnectionSet, dialect: Dialect) throws {
        let clients = set.connections
        switch dialect {
        case .parley:
            let askers = stride(from: 0, to: clients.count - 1, by: 2).map { clients[$0] }
            let requestIDs = set.perform(askers) { (client: BenchConnection, done: @escaping (String?) -> Void) in
                let partner = clients[client.index + 1]
                client.request(Op.FriendRequest.self, FriendRequestParameters(userId: UserID(string: partner.userID))) { result in
                    done(try? result.get().request?.id)
                }
            }
            guard requestIDs.allSatisfy({ ($0 ?? nil) != nil }) else {
                throw BenchError.failed("\(requestIDs.filter { ($0 ?? nil) == nil }.count) friend requests failed")
            }
            let accepters = askers.map { clients[$0.index + 1] }
            let byAccepter = Dictionary(uniqueKeysWithValues: zip(accepters.map(\.index), requestIDs.map { $0!! }))
            let conversations = set.perform(accepters) { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.request(Op.FriendAccept.self, RequestReference(requestId: byAccepter[client.index]!)) { result in
                    done((try? result.get().conversationId)?.description)
                }
            }
            guard conversations.allSatisfy({ ($0 ?? nil) != nil }) else {
                throw BenchError.failed("\(conversations.filter { ($0 ?? nil) == nil }.count) friend accepts failed")
            }
            for (accepter, conversation) in zip(accepters, conversations) {
                accepter.route = conversation!!
                clients[accepter.index - 1].route = conversation!!
            }
        case .relay, .nats:
            try expectAll(set.perform { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.route = "u\(client.index ^ 1)"
                client.subscribe("u\(client.index)") { ok in done(ok ? nil : "subscribe failed") }
            }, what: "subscribe")
        }
    }

    /// Parley: client 0 creates a group, every other client joins it. Relay and NATS: every
    /// client subscribes to one topic. Everyone's route is the group.
    static func formGroup(_ set: ConnectionSet, dialect: Dialect) throws {
        let clients = set.connections
        switch dialect {
        case .parley:
            let name = "g-" + UserRegistry.runPrefix()
            let created = set.perform([clients[0]]) { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.request(Op.GroupCreate.self, CreateParameters(name: name)) { result in
                    done((try? result.get().id)?.description)
                }
            }
            guard let conversation = created.first.flatMap({ $0 }).flatMap({ $0 }) else { throw BenchError.failed("group.create failed") }
            try expectAll(set.perform(Array(clients.dropFirst())) { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.request(Op.GroupJoin.self, NameReference(name: name)) { result in
                    done(result.failureReason)
                }
            }, what: "join the group")
            for client in clients { client.route = conversation }
        case .relay, .nats:
            let topic = "g" + UserRegistry.runPrefix()
            try expectAll(set.perform { (client: BenchConnection, done: @escaping (String?) -> Void) in
                client.route = topic
                client.subscribe(topic) { ok in done(ok ? nil : "subscribe failed") }
            }, what: "subscribe")
        }
    }

    /// Parley: every user's read-receipt choice (`privacy.set`), for `direct --receipts`.
    static func setReadReceipts(_ set: ConnectionSet, on: Bool) throws {
        try expectAll(set.perform { (client: BenchConnection, done: @escaping (String?) -> Void) in
            client.request(Op.PrivacySet.self, PrivacySettings(readReceipts: on)) { result in done(result.failureReason) }
        }, what: "set their privacy")
    }

    /// Parley: `clients` go away as a phone app put in the background does: each registers a
    /// Web Push subscription to the push service at `sinkPort` (`PushSink`) and tells the
    /// server that its connection is inactive, so messages to it are pushed as well as sent.
    static func sendAway(_ set: ConnectionSet, _ clients: [BenchConnection], target: MessagingSettings.Target, sinkPort: Int) throws {
        let key = try P256Key.generate()
        let secret = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let keys = ["p256dh": Base64URL.encode(key.publicKey), "auth": Base64URL.encode(secret)]
        for client in clients {
            let body = try JSONSerialization.data(withJSONObject: [
                "endpoint": "http://127.0.0.1:\(sinkPort)/push/\(client.index)", "keys": keys,
            ] as [String: Any])
            let reply = try HTTPPost.send(host: hostText(target.address), port: target.address.port, path: "/v1/push/subscriptions",
                                          json: body, tls: set.tls, token: client.token)
            guard reply.status == 201 else {
                throw BenchError.failed("push subscription: HTTP \(reply.status) \(String(decoding: reply.body.prefix(200), as: UTF8.self))"
                    + " (does the server run with --push-allow-loopback yes?)")
            }
        }
        try expectAll(set.perform(clients) { (client: BenchConnection, done: @escaping (String?) -> Void) in
            client.request(Op.ClientState.self, ClientStateParameters(state: .inactive)) { result in done(result.failureReason) }
        }, what: "go inactive")
    }

    /// Throws if any client failed (nil means success; a missing result means it timed out).
    static func expectAll(_ results: [String??], what: String) throws {
        var failures: [String: Int] = [:]
        for result in results {
            switch result {
            case .none: failures["timed out", default: 0] += 1
            case .some(.some(let reason)): failures[reason, default: 0] += 1
            case .some(.none): break
            }
        }
        guard failures.isEmpty else {
            throw BenchError.failed("\(failures.values.reduce(0, +)) of \(results.count) clients could not \(what): "
                + ErrorTally.lines(failures).prefix(3).joined(separator: "; "))
        }
    }

    static func hostText(_ address: SocketAddress) -> String { address.host }
}
