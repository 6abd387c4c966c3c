import Foundation
import Testing
@testable import ParleyServer

/// Who may do what in a group: owner, admin, member, muted member, banned user and outsider ×
/// every group operation, each row on fresh groups so one row's change cannot decide the next
/// (and within a row, a fresh group after every allowed call).
@Suite(.serialized) struct GovernanceTableTests {
    enum Expect: Equatable, CustomStringConvertible {
        case allow, deny(String)
        var description: String {
            switch self {
            case .allow: "allow"
            case .deny(let code): code
            }
        }
    }

    /// The people of every row; `victim` is acted on, `applicant` has a pending request.
    struct Cast {
        let owner, admin, member, muted, banned, outsider, victim, applicant: Chatter
    }

    /// What a fresh group's row may refer to.
    struct Scene {
        let group: String
        let name: String
        let token: String
        let victimMessage: String
    }

    /// A group in which every role is what its name says, in `approval` mode with one request.
    static func scene(_ cast: Cast, index: Int) async throws -> Scene {
        let name = "Rules \(index)"
        let group = try unwrap(try await cast.owner.call("group.create", ["name": name])["id"] as? String)
        for person in [cast.admin, cast.member, cast.muted, cast.banned, cast.victim] {
            try await person.call("group.join", ["name": name])
        }
        try await cast.owner.call("group.admin.add", ["conversationId": group, "userId": cast.admin.id])
        try await cast.owner.call("group.mute", ["conversationId": group, "userId": cast.muted.id,
                                                 "until": Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000])
        try await cast.owner.call("group.ban", ["conversationId": group, "userId": cast.banned.id, "reason": "spam"])
        let message = try unwrap(try await cast.victim.send(group, "old words")["id"] as? String)
        try await cast.owner.call("group.update", ["conversationId": group, "joinMode": "approval"])
        let pending = try await cast.applicant.call("group.join", ["name": name])
        #expect(pending["pending"] as? Bool == true)
        let token = try unwrap(try await cast.owner.call("group.invite.create", ["conversationId": group, "maxUses": 10])["token"] as? String)
        return Scene(group: group, name: name, token: token, victimMessage: message)
    }

    @Test func everyRoleGetsTheRightAnswerForEveryGroupOperation() async throws {
        // A recall window of 0: only the moderators' recall of another's message remains.
        let server = try TestServer { $0.recallWindowSeconds = 0 }
        defer { server.stop() }
        var people: [Chatter] = []
        for name in ["owner", "admin", "member", "muted", "banned", "outsider", "victim", "applicant"] {
            people.append(try await Chatter(name, on: server))
        }
        let cast = Cast(owner: people[0], admin: people[1], member: people[2], muted: people[3], banned: people[4], outsider: people[5],
                        victim: people[6], applicant: people[7])
        let roles: [(String, Chatter)] = [("owner", cast.owner), ("admin", cast.admin), ("member", cast.member), ("muted", cast.muted),
                                          ("banned", cast.banned), ("outsider", cast.outsider)]
        let outside: [Expect] = [.deny("not_member"), .deny("not_member")]
        let moderators: [Expect] = [.allow, .allow, .deny("not_admin"), .deny("not_admin")] + outside
        let ownerOnly: [Expect] = [.allow, .deny("not_owner"), .deny("not_owner"), .deny("not_owner")] + outside
        let members: [Expect] = [.allow, .allow, .allow, .allow] + outside
        typealias Row = (String, (Scene) -> [String: Any], [Expect])
        let table: [Row] = [
            ("message.send", { ["conversationId": $0.group, "clientId": UUID().uuidString, "kind": "text", "text": "hi"] },
             [.allow, .allow, .allow, .deny("muted")] + outside),
            ("message.history", { ["conversationId": $0.group] }, members),
            ("group.get", { ["conversationId": $0.group] }, members),
            ("group.members", { ["conversationId": $0.group] }, members),
            ("group.update", { ["conversationId": $0.group, "description": "ours"] }, members),
            ("group.update", { ["conversationId": $0.group, "joinMode": "invite"] }, moderators),
            ("group.update", { ["conversationId": $0.group, "showHistory": true] }, moderators),
            ("group.remove", { ["conversationId": $0.group, "userId": cast.victim.id] }, moderators),
            ("group.mute", { ["conversationId": $0.group, "userId": cast.victim.id, "until": Int64(Date().timeIntervalSince1970 * 1000) + 60_000] },
             moderators),
            ("group.unmute", { ["conversationId": $0.group, "userId": cast.muted.id] }, moderators),
            ("group.ban", { ["conversationId": $0.group, "userId": cast.victim.id] }, moderators),
            ("group.unban", { ["conversationId": $0.group, "userId": cast.banned.id] }, moderators),
            ("group.bans", { ["conversationId": $0.group] }, moderators),
            ("group.requests", { ["conversationId": $0.group] }, moderators),
            ("group.request.accept", { ["conversationId": $0.group, "userId": cast.applicant.id] }, moderators),
            ("group.request.decline", { ["conversationId": $0.group, "userId": cast.applicant.id] }, moderators),
            ("group.invite.create", { ["conversationId": $0.group] }, moderators),
            ("group.invites", { ["conversationId": $0.group] }, moderators),
            ("group.invite.revoke", { ["token": $0.token] }, moderators),
            ("group.invite.preview", { ["token": $0.token] }, [.allow, .allow, .allow, .allow, .allow, .allow]),
            ("group.invite.join", { ["token": $0.token] }, [.allow, .allow, .allow, .allow, .deny("banned"), .allow]),
            ("group.join", { ["name": $0.name] }, [.allow, .allow, .allow, .allow, .deny("banned"), .allow]),
            ("group.admin.add", { ["conversationId": $0.group, "userId": cast.victim.id] }, ownerOnly),
            ("group.admin.remove", { ["conversationId": $0.group, "userId": cast.admin.id] }, ownerOnly),
            ("group.transfer", { ["conversationId": $0.group, "userId": cast.victim.id] }, ownerOnly),
            ("message.recall", { ["conversationId": $0.group, "messageId": $0.victimMessage, "clientId": UUID().uuidString] },
             [.allow, .allow, .deny("not_sender"), .deny("not_sender")] + outside),
            ("group.leave", { ["conversationId": $0.group] }, members),
        ]
        var index = 0
        var failures: [String] = []
        var asked = 0
        for (op, parameters, expectations) in table {
            // A refused call changes nothing, so the next role of the row asks in the same
            // group; after an allowed one (which may have changed it) the next gets a fresh one.
            var current: Scene?
            for ((role, caller), expected) in zip(roles, expectations) {
                asked += 1
                let scene: Scene
                if let current {
                    scene = current
                } else {
                    index += 1
                    scene = try await Self.scene(cast, index: index)
                }
                let reply = try await caller.socket.call(op, parameters(scene))
                let actual: Expect = reply["ok"] as? Bool == true
                    ? .allow : .deny((reply["error"] as? [String: Any])?["code"] as? String ?? "?")
                if actual != expected { failures.append("\(role) \(op) \(parameters(scene).keys.sorted()): \(actual), expected \(expected)") }
                current = actual == .allow ? nil : scene
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(asked == table.count * roles.count)
    }
}
