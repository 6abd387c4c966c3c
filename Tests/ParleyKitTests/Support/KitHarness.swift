import Foundation
import ParleyKit
import ParleyProtocol
import ParleySync

/// Builds clients for a test server and records what they report.
enum KitHarness {
    /// A client of `server` that reconnects quickly (tests restart servers).
    /// `caFile`: the CA for a TLS server's certificate.
    static func client(_ server: TestServer, database: String? = nil, caFile: String? = nil) throws -> ParleyClient {
        try ParleyClient(configuration: ParleyClient.Configuration(
            server: server.url, databasePath: database,
            reconnect: ParleyClient.ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(400)),
            requestTimeout: .seconds(10), offlineWait: .seconds(15), userAgent: "ParleyKitTests", caFile: caFile))
    }

    /// A fresh database path in the server's temporary directory.
    static func databasePath(_ server: TestServer, _ name: String) -> String {
        server.dataDirectory + "/clients/\(name).sqlite"
    }

    /// A unique username (tests share nothing, but names read better in failures).
    static func username(_ base: String) -> String {
        "\(base)\(UUID().uuidString.prefix(6).lowercased())"
    }

    /// Registers two users and makes them friends; returns their 1:1 conversation.
    static func friends(_ a: ParleyClient, _ aName: String, _ b: ParleyClient, _ bName: String) async throws -> ConversationID {
        try await a.register(username: aName, password: "password123")
        try await b.register(username: bName, password: "password123")
        let outcome = try await a.requestFriend(username: bName, greeting: "hi")
        guard let request = outcome.request else { throw TestFailure("no friend request") }
        let friend = try await b.acceptFriendRequest(request.id)
        return friend.conversationId
    }

    /// Polls `condition` until it holds or `timeout` passes.
    static func eventually(_ what: String, timeout: Duration = .seconds(20),
                           _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("timed out waiting for \(what)")
    }
}

/// Everything a client reports, kept for assertions.
final class EventRecorder: Sendable {
    /// Shared with the recording task, which must not keep the recorder itself alive.
    private final class Log: Sendable {
        let events = PThreadMutex<[ParleyEvent]>([])
    }

    private let log = Log()
    private let task: Task<Void, Never>

    init(_ client: ParleyClient) {
        let stream = client.events()
        let log = self.log
        task = Task {
            for await event in stream { log.events.withLock { $0.append(event) } }
        }
    }

    deinit {
        task.cancel()
    }

    var all: [ParleyEvent] { log.events.withLock { $0 } }

    /// The new messages reported for `conversation`, in the order reported.
    func messages(in conversation: ConversationID) -> [Message] {
        all.compactMap { event in
            if case .messageNew(let message) = event, message.conversationId == conversation { return message }
            return nil
        }
    }

    /// The texts of those messages.
    func texts(in conversation: ConversationID) -> [String] {
        messages(in: conversation).compactMap(\.text)
    }
}
