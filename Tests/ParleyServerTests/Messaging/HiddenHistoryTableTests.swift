import Foundation
import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyServer

/// A group hides its history from newcomers by default: a member who joined after a message
/// must not read it by any path. Each path × (member who joined before, member who joined
/// after, ex-member, outsider), on one group: the owner's secret, pinned, quoted and reacted
/// to after the late member joined.
@Suite(.serialized) struct HiddenHistoryTableTests {
    static let secret = "the combination is 4-8-15"

    enum Expect: Equatable, CustomStringConvertible {
        case allow, deny(String)
        var description: String {
            switch self {
            case .allow: "allow"
            case .deny(let code): code
            }
        }
    }

    /// The answer as a table cell, and whether the secret's text is anywhere in it.
    private func outcome(_ reply: [String: Any]) throws -> (Expect, Bool) {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
        let expect: Expect = reply["ok"] as? Bool == true ? .allow : .deny((reply["error"] as? [String: Any])?["code"] as? String ?? "?")
        return (expect, text.contains(Self.secret))
    }

    @Test func aMessageFromBeforeAMembersJoinIsNotTheirsByAnyPath() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let owner = try await Chatter("keeper", on: server)
        let early = try await Chatter("early", on: server)
        let late = try await Chatter("late", on: server)
        let former = try await Chatter("former", on: server)
        let outsider = try await Chatter("outsider", on: server)
        let group = try unwrap(try await owner.call("group.create", ["name": "Vault"])["id"] as? String)
        try await early.call("group.join", ["name": "Vault"])
        try await former.call("group.join", ["name": "Vault"])
        let secret = try await owner.send(group, Self.secret)
        let secretID = try unwrap(secret["id"] as? String)
        let secretSeq = try unwrap((secret["seq"] as? NSNumber)?.int64Value)
        try await owner.call("conversation.pin", ["conversationId": group, "messageId": secretID, "clientId": UUID().uuidString])
        try await former.call("group.leave", ["conversationId": group])
        try await late.call("group.join", ["name": "Vault"])
        // After the late member joined: a reply quoting the secret, and a reaction to it.
        try await early.call("message.send", ["conversationId": group, "clientId": UUID().uuidString, "kind": "text",
                                              "text": "so that is it", "replyTo": secretID])
        try await early.call("message.react", ["conversationId": group, "messageId": secretID, "emoji": "👍",
                                               "clientId": UUID().uuidString])
        // Somewhere of their own to forward to.
        var own: [String: String] = [:]
        for person in [early, late, former, outsider] {
            own[person.name] = try unwrap(try await person.call("group.create", ["name": "Own \(person.name)"])["id"] as? String)
        }

        let people = [early, late, former, outsider]
        let outside: [Expect] = [.deny("not_member"), .deny("not_member")]
        typealias Row = (op: String, parameters: (Chatter) -> [String: Any], expected: [Expect])
        let table: [Row] = [
            ("message.history", { _ in ["conversationId": group, "events": true] }, [.allow, .allow] + outside),
            ("sync", { _ in ["since": [String: Int]()] }, [.allow, .allow, .allow, .allow]),
            ("message.search", { _ in ["query": "combination"] }, [.allow, .allow, .allow, .allow]),
            ("message.search", { _ in ["query": "combination", "conversationId": group] }, [.allow, .allow] + outside),
            ("message.react", { _ in ["conversationId": group, "messageId": secretID, "emoji": "🔥", "clientId": UUID().uuidString] },
             [.allow, .deny("not_found")] + outside),
            ("message.hide", { _ in ["conversationId": group, "messageId": secretID] }, [.allow, .deny("not_found")] + outside),
            ("message.forward", { ["conversationId": group, "messageId": secretID, "to": own[$0.name] ?? "", "clientId": UUID().uuidString] },
             [.allow, .deny("not_found")] + outside),
            ("message.send", { _ in ["conversationId": group, "clientId": UUID().uuidString, "kind": "text", "text": "what?",
                                     "replyTo": secretID] },
             [.allow, .deny("not_found")] + outside),
            ("message.readers", { _ in ["conversationId": group, "seq": secretSeq] }, [.allow, .deny("not_found")] + outside),
            ("conversation.unpin", { _ in ["conversationId": group, "messageId": secretID, "clientId": UUID().uuidString] },
             // Once unpinned by the early member, there is nothing pinned to unpin for later rows.
             [.allow, .deny("not_found")] + outside),
            ("report.create", { _ in ["conversationId": group, "messageId": secretID, "reason": "other"] },
             [.allow, .deny("not_found")] + outside),
        ]
        var failures: [String] = []
        for row in table {
            for (person, expected) in zip(people, row.expected) {
                let (actual, leaked) = try outcome(try await person.socket.call(row.op, row.parameters(person)))
                if actual != expected { failures.append("\(person.name) \(row.op): \(actual), expected \(expected)") }
                // Only the early member may ever see the secret's text.
                if leaked && person.name != "early" { failures.append("\(person.name) \(row.op): the answer holds the secret") }
            }
        }
        // What the server pushed while all this happened: the reply's preview and the
        // reaction's update reach the late member without the secret.
        let pushed = String(decoding: try JSONSerialization.data(withJSONObject: late.socket.pending), as: UTF8.self)
        if pushed.contains(Self.secret) { failures.append("late: an event pushed to them holds the secret") }
        let updates = late.pendingEvents("message.updated")
        if updates.isEmpty { failures.append("late: no message.updated was pushed (the reaction's)") }
        let earlyPushed = String(decoding: try JSONSerialization.data(withJSONObject: owner.socket.pending), as: UTF8.self)
        if !earlyPushed.contains(Self.secret) { failures.append("owner: the updates lost the secret for those who may see it") }

        // The archive (XMPP's MAM) and the account export, read as those paths read them.
        let archive = try await server.server.services.conversations.archive(
            for: try unwrap(UserID(string: late.id)), ArchiveQuery(scope: .conversation(try unwrap(ConversationID(string: group)))))
        if archive.messages.contains(where: { $0.text == Self.secret }) { failures.append("late: the archive holds the secret") }
        let earlyArchive = try await server.server.services.conversations.archive(
            for: try unwrap(UserID(string: early.id)), ArchiveQuery(scope: .conversation(try unwrap(ConversationID(string: group)))))
        if !earlyArchive.messages.contains(where: { $0.text == Self.secret }) { failures.append("early: the archive lost the secret") }
        let gateway = StoreGateway(store: server.server.store, blocking: PoolExecutor(pool: server.server.pool))
        for (person, sees) in [(late, false), (early, true)] {
            let export = try await AccountExport.read(try unwrap(UserID(string: person.id)), from: gateway, maxMessages: 10_000) { _ in }
            let has = export.conversations.flatMap(\.messages).contains { $0.text == Self.secret }
            if has != sees { failures.append("\(person.name): export \(has ? "holds" : "lacks") the secret") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
