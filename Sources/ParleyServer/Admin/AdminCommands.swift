import Foundation
import ParleyCore
import ParleyProtocol

/// The commands of `parley admin` (its `--help` lists them), each one call into
/// `AdminService` with no administrator's account (`by: nil`): the service's local actor is
/// written to the audit log instead. The same interpreter runs in the command line's own
/// process on the data directory (`AdminConsole`) and inside the running server for its
/// local admin socket (`AdminSocket`), so the two cannot drift apart.
public struct AdminCommands: Sendable {
    let admin: AdminService
    /// Open connections, for `stats`: the server's count, or 0 where none are held.
    let connections: @Sendable () -> Int
    /// `backup DEST`: an online copy of the data into the new directory DEST.
    let backup: @Sendable (String) async throws -> String

    init(admin: AdminService, connections: @escaping @Sendable () -> Int,
         backup: @escaping @Sendable (String) async throws -> String) {
        self.admin = admin
        self.connections = connections
        self.backup = backup
    }

    /// How the audit log names an operator on the server's machine.
    public static func localActor(uid: UInt32) -> String {
        "local admin (uid \(uid))"
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
            return try Self.json(try await admin.stats(connections: connections()))
        case ("revoke-sessions", let id?):
            let count = try await admin.revokeSessions(of: try Self.user(id), reason: options["reason"], by: nil)
            return try Self.json(SessionsRevoked(revoked: count))
        case ("backup", let destination?):
            return try await backup(destination)
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
