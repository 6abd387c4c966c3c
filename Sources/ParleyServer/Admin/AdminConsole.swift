import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// `parley admin` on the server's machine: the admin API's operations (and granting the role,
/// which nothing on the network can do) run straight on the data directory's store, with the
/// same core services and the same audit log as the HTTP API, written as the machine's
/// operator (no admin id).
///
/// On SQLite this may run beside a live server: SQLite's locks let two processes share the
/// file. What it cannot do from outside is close the connections of a user it suspends;
/// their sign-ins and requests are refused from that moment, and open WebSockets and Jabber
/// streams end at their next sign-in. Suspend through the admin API to close them at once.
public final class AdminConsole: Sendable {
    private let opened: OpenedStore
    private let pool: BlockingPool
    let admin: AdminService

    public init(configuration: ServerConfiguration) throws {
        var quiet = configuration
        quiet.databaseReaders = 1
        opened = try ParleyServer.openStore(quiet, logger: Logger(label: "parley-admin", minimumLevel: .error))
        pool = BlockingPool(threadCount: 1, name: "parley-admin")
        let store = opened.store
        let blocking = PoolExecutor(pool: pool)
        let secrets = SodiumSecrets()
        let clock: WallClock = { Int64(Date().timeIntervalSince1970 * 1000) }
        var rules = AccountRules()
        rules.usernameQuarantineDays = configuration.usernameQuarantineDays
        rules.eraseMessagesOnDelete = configuration.eraseMessagesOnDelete == "yes"
        rules.text = configuration.textLimits
        let accounts = AccountService(store: store, passwords: SodiumPasswords(hasher: PasswordHasher()), secrets: secrets,
                                      sms: FileOutboxSender(path: configuration.dataDirectory + "/sms-outbox.jsonl", blocking: blocking),
                                      blocking: blocking, rules: rules, clock: clock)
        // Nobody is connected to this process: the hub delivers to no one, which is the truth.
        let hub = ConnectionHub()
        var messagingRules = MessagingRules()
        messagingRules.text = configuration.textLimits
        messagingRules.membershipCacheConversations = 0
        let messaging = MessagingContext(store: store, blocking: blocking, delivery: hub, secrets: secrets, rules: messagingRules,
                                         clock: clock, notifications: nil)
        let media = MediaService(store: store, files: try MediaDirectory(path: configuration.dataDirectory + "/media"),
                                 secrets: secrets, blocking: blocking, rules: configuration.mediaRules, clock: clock)
        let groups = GroupService(context: messaging)
        let deletion = AccountDeletionService(accounts: accounts, groups: groups, rooms: RoomService(context: messaging),
                                              context: messaging, media: media)
        admin = AdminService(accounts: accounts, context: messaging, groups: groups, deletion: deletion,
                             rules: configuration.moderationRules, registry: nil)
    }

    /// Closes the store and stops the console's thread.
    public func close() {
        opened.close()
        pool.shutdown()
    }

    /// Runs one command (`parley admin --help` lists them) and returns what to print.
    public func run(_ arguments: [String]) async throws -> String {
        var words = arguments
        let options = Self.options(&words)
        switch (words.first, words.dropFirst().first) {
        case ("grant", let name?), ("revoke", let name?):
            let granted = words[0] == "grant"
            let id = try await admin.setAdmin(username: name, granted)
            return granted ? "\(name) (id \(id)) is an administrator" : "\(name) (id \(id)) is no longer an administrator"
        case ("users", "search"):
            return try Self.json(try await admin.searchUsers(words.dropFirst(2).joined(separator: " ")))
        case ("users", "show"):
            return try Self.json(try await admin.user(try Self.user(words.dropFirst(2).first)))
        case ("suspend", let id?):
            let until = try options["days"].map { days -> Int64 in
                guard let days = Double(days), days > 0 else { throw AdminConsoleError("--days takes a number of days above 0") }
                return Int64(Date().timeIntervalSince1970 * 1000) + Int64(days * 86_400_000)
            }
            return try Self.json(try await admin.suspend(try Self.user(id), SuspendRequest(reason: options["reason"] ?? "", until: until), by: nil))
        case ("unsuspend", let id?):
            return try Self.json(try await admin.unsuspend(try Self.user(id), reason: options["reason"], by: nil))
        case ("stats", _):
            // Connections are the running server's; this process holds none.
            return try Self.json(try await admin.stats(connections: 0))
        case ("reports", "list"):
            var query: [String: String] = [:]
            for name in ["status", "reason", "userId", "before"] { query[name] = options[name] }
            return try Self.json(try await admin.reports(try AdminRoutes.reportFilter(query)))
        case ("reports", "resolve"):
            guard words.count >= 4, let outcome = Report.Outcome(rawValue: words[3]) else {
                throw AdminConsoleError("usage: reports resolve ID OUTCOME (\(Report.Outcome.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return try Self.json(try await admin.resolve(words[2], ReportResolution(outcome: outcome, reason: options["reason"]), by: nil))
        case ("audit", _):
            return try Self.json(try await admin.audit(before: options["before"]))
        default:
            throw AdminConsoleError("unknown admin command '\(arguments.joined(separator: " "))'; see parley admin --help")
        }
    }

    /// Takes `--name value` pairs out of `words`.
    private static func options(_ words: inout [String]) -> [String: String] {
        var options: [String: String] = [:]
        var rest: [String] = []
        var index = 0
        while index < words.count {
            if words[index].hasPrefix("--"), index + 1 < words.count {
                options[String(words[index].dropFirst(2))] = words[index + 1]
                index += 2
            } else {
                rest.append(words[index])
                index += 1
            }
        }
        words = rest
        return options
    }

    private static func user(_ text: String?) throws -> UserID {
        guard let text, let id = UserID(string: text) else { throw AdminConsoleError("give a user id (parley admin users search NAME finds it)") }
        return id
    }

    private static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A refusal of `parley admin`, said in plain words.
public struct AdminConsoleError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
