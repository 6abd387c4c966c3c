import Foundation
import Testing
@testable import ParleyServer

/// Who may do what in a room: its creator, an admin the creator appointed, an occupant and
/// someone outside × every room moderation operation, each row on a fresh room.
@Suite(.serialized) struct RoomAdminTableTests {
    enum Expect: Equatable, CustomStringConvertible {
        case allow, deny(String)
        var description: String {
            switch self {
            case .allow: "allow"
            case .deny(let code): code
            }
        }
    }

    struct Cast {
        let creator, admin, occupant, outsider, victim, otherAdmin, banned: Chatter
    }

    /// A room with every part filled: two admins, an occupant to act on, a banned user.
    static func scene(_ cast: Cast, index: Int) async throws -> String {
        let name = "Hall \(index)"
        let room = try unwrap(((try await cast.creator.call("room.create", ["name": name]))["room"] as? [String: Any])?["id"] as? String)
        for person in [cast.admin, cast.occupant, cast.victim, cast.otherAdmin] {
            try await person.call("room.enter", ["name": name])
        }
        for person in [cast.admin, cast.otherAdmin] {
            try await cast.creator.call("room.admin.add", ["conversationId": room, "userId": person.id])
        }
        try await cast.creator.call("room.ban", ["conversationId": room, "userId": cast.banned.id, "reason": "noise"])
        return room
    }

    @Test func theCreatorAndAdminsModerateAndOnlyTheCreatorAppoints() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var people: [Chatter] = []
        for name in ["creator", "roomadmin", "occupant", "outsider", "victim", "otheradmin", "banned"] {
            people.append(try await Chatter(name, on: server))
        }
        let cast = Cast(creator: people[0], admin: people[1], occupant: people[2], outsider: people[3], victim: people[4],
                        otherAdmin: people[5], banned: people[6])
        let roles: [(String, Chatter)] = [("creator", cast.creator), ("admin", cast.admin), ("occupant", cast.occupant),
                                          ("outsider", cast.outsider)]
        let moderators: [Expect] = [.allow, .allow, .deny("not_admin"), .deny("not_admin")]
        let creatorOnly: [Expect] = [.allow, .deny("not_owner"), .deny("not_owner"), .deny("not_owner")]
        typealias Row = (String, (String) -> [String: Any], [Expect])
        let table: [Row] = [
            ("room.kick", { ["conversationId": $0, "userId": cast.victim.id] }, moderators),
            ("room.ban", { ["conversationId": $0, "userId": cast.victim.id, "reason": "spam"] }, moderators),
            ("room.unban", { ["conversationId": $0, "userId": cast.banned.id] }, moderators),
            ("room.bans", { ["conversationId": $0] }, moderators),
            // An admin acts on occupants only: not on another admin, nor on the creator.
            ("room.kick", { ["conversationId": $0, "userId": cast.otherAdmin.id] },
             [.allow, .deny("not_admin"), .deny("not_admin"), .deny("not_admin")]),
            ("room.ban", { ["conversationId": $0, "userId": cast.creator.id] },
             [.deny("invalid_field"), .deny("not_owner"), .deny("not_admin"), .deny("not_admin")]),
            ("room.admin.add", { ["conversationId": $0, "userId": cast.victim.id] }, creatorOnly),
            ("room.admin.add", { ["conversationId": $0, "userId": cast.banned.id] },
             [.deny("banned"), .deny("not_owner"), .deny("not_owner"), .deny("not_owner")]),
            ("room.admin.remove", { ["conversationId": $0, "userId": cast.otherAdmin.id] }, creatorOnly),
            ("room.admins", { ["conversationId": $0] }, [.allow, .allow, .allow, .deny("not_member")]),
        ]
        var index = 0
        var failures: [String] = []
        for (op, parameters, expectations) in table {
            for ((role, caller), expected) in zip(roles, expectations) {
                index += 1
                let room = try await Self.scene(cast, index: index)
                let reply = try await caller.socket.call(op, parameters(room))
                let actual: Expect = reply["ok"] as? Bool == true
                    ? .allow : .deny((reply["error"] as? [String: Any])?["code"] as? String ?? "?")
                if actual != expected { failures.append("\(role) \(op) \(parameters(room)): \(actual), expected \(expected)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(index == table.count * roles.count)
    }

    @Test func anAdminsKickReachesTheRoomAndTheRoleCanBeTakenAway() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let creator = try await Chatter("founder", on: server)
        let admin = try await Chatter("warden", on: server)
        let noisy = try await Chatter("noisy", on: server)
        let room = try unwrap(((try await creator.call("room.create", ["name": "Lobby"]))["room"] as? [String: Any])?["id"] as? String)
        try await admin.call("room.enter", ["name": "Lobby"])
        try await noisy.call("room.enter", ["name": "Lobby"])
        try await creator.call("room.admin.add", ["conversationId": room, "userId": admin.id])
        _ = try await noisy.event("message.new") { (($0["system"] as? [String: Any])?["type"] as? String) == "admin_added" }
        let admins = try await noisy.call("room.admins", ["conversationId": room])
        #expect((admins["users"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [admin.id])

        try await admin.call("room.kick", ["conversationId": room, "userId": noisy.id, "reason": "shouting"])
        let kicked = try await noisy.event("room.kicked")
        #expect(kicked["actor"] as? String == admin.id && kicked["banned"] as? Bool == false)
        // Taken away, the admin is an occupant like any other.
        try await creator.call("room.admin.remove", ["conversationId": room, "userId": admin.id])
        try await noisy.call("room.enter", ["name": "Lobby"])
        #expect(try await admin.refused("room.kick", ["conversationId": room, "userId": noisy.id]) == "not_admin")
        #expect(try await creator.refused("room.admin.remove", ["conversationId": room, "userId": admin.id]) == "not_found")
    }
}
