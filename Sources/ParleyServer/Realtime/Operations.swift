import Foundation
import ParleyCore
import ParleyProtocol

/// The WebSocket operations of `docs/protocol.md`, by name.
enum Operations {
    static func table(accounts: AccountService, hub: ConnectionHub) -> [String: OperationHandler] {
        [
            "ping": { _ in Pong(time: Int64(Date().timeIntervalSince1970 * 1000)) },
            "me.get": { request throws(ProtocolError) in
                try await accounts.account(of: request.session.userID)
            },
            "me.update": { request throws(ProtocolError) in
                let update = try request.parameters(ProfileUpdate.self)
                let account = try await accounts.updateProfile(of: request.session.userID, with: update)
                hub.push("me.updated", account, to: request.session.userID, excluding: request.connection)
                return account
            },
            "user.get": { request throws(ProtocolError) in
                let lookup = try request.parameters(UserLookup.self)
                if let id = lookup.id { return try await accounts.profile(id: id) }
                if let username = lookup.username { return try await accounts.profile(username: username) }
                throw ProtocolError(.missingField, "give an id or a username", field: "id")
            },
        ]
    }
}

/// The `ping` operation's result.
struct Pong: Codable, Sendable {
    var time: Int64
}
