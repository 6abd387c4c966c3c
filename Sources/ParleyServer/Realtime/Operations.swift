import Foundation
import ParleyCore
import ParleyProtocol

/// The WebSocket operations of `docs/protocol.md`, by name.
enum Operations {
    /// The hot operations, with their parameter types: their `data` is decoded together with
    /// the frame (one JSON pass), and they run on their connection's event loop instead of
    /// the task pool (no thread hand-offs besides the store's writer), with their handlers in
    /// `loopTable`, not `table`. Only for operations whose own work on the loop is short and
    /// never blocks.
    static let loopOperations: [String: any (Decodable & Sendable).Type] = [
        "message.send": SendParameters.self,
    ]

    /// The hot operations' handlers: no task each, they answer through a callback that runs
    /// on the connection's loop (the store's writer hands its outcome straight to the loop).
    static func loopTable(conversations: ConversationService) -> [String: LoopOperationHandler] {
        [
            "message.send": { request, reply in
                let parameters: SendParameters
                do throws(ProtocolError) {
                    parameters = try request.parameters(SendParameters.self)
                } catch {
                    reply(.failure(error))
                    return
                }
                let loop = request.connection.loop
                conversations.send(from: request.session.userID, parameters, connection: request.connection.token,
                                   resume: { loop.execute($0) }) { reply($0.map { $0 }) }
            },
        ]
    }

    static func table(accounts: AccountService, social: SocialService, conversations: ConversationService,
                      groups: GroupService, rooms: RoomService, delivery: any Delivery) -> [String: OperationHandler] {
        [
            "ping": { _ in Pong(time: Int64(Date().timeIntervalSince1970 * 1000)) },

            // Profiles
            "me.get": { request throws(ProtocolError) in
                try await accounts.account(of: request.session.userID)
            },
            "me.update": { request throws(ProtocolError) in
                let update = try request.parameters(ProfileUpdate.self)
                let account = try await accounts.updateProfile(of: request.session.userID, with: update)
                // Through the delivery: the user's connections on other cluster nodes hear of it too.
                delivery.deliver(event: EventName.meUpdated, payload: account, to: [request.session.userID], excluding: request.connection.token)
                return account
            },
            "user.get": { request throws(ProtocolError) in
                let lookup = try request.parameters(UserLookup.self)
                if let id = lookup.id { return try await accounts.profile(id: id) }
                if let username = lookup.username { return try await accounts.profile(username: username) }
                throw ProtocolError(.missingField, "give an id or a username", field: "id")
            },

            // Friends and blocks
            "friend.request": { request throws(ProtocolError) in
                try await social.requestFriend(from: request.session.userID, try request.parameters(FriendRequestParameters.self),
                                               connection: request.connection.token)
            },
            "friend.accept": { request throws(ProtocolError) in
                try await social.accept(try request.parameters(RequestReference.self).requestId, by: request.session.userID)
            },
            "friend.decline": { request throws(ProtocolError) in
                try await social.decline(try request.parameters(RequestReference.self).requestId, by: request.session.userID)
                return EmptyPayload()
            },
            "friend.list": { request throws(ProtocolError) in
                try await social.friends(of: request.session.userID, try request.parameters(PageParameters.self))
            },
            "friend.requests": { request throws(ProtocolError) in
                try await social.requests(of: request.session.userID, try request.parameters(FriendRequestsParameters.self))
            },
            "friend.remove": { request throws(ProtocolError) in
                try await social.removeFriend(try request.parameters(UserReference.self).userId, by: request.session.userID)
                return EmptyPayload()
            },
            "block.add": { request throws(ProtocolError) in
                try await social.block(try request.parameters(UserReference.self).userId, by: request.session.userID)
                return EmptyPayload()
            },
            "block.remove": { request throws(ProtocolError) in
                try await social.unblock(try request.parameters(UserReference.self).userId, by: request.session.userID)
                return EmptyPayload()
            },
            "block.list": { request throws(ProtocolError) in
                try await social.blocked(by: request.session.userID, try request.parameters(PageParameters.self))
            },

            // Discover
            "discover.deck": { request throws(ProtocolError) in
                try await social.deck(for: request.session.userID, try request.parameters(PageParameters.self))
            },
            "discover.like": { request throws(ProtocolError) in
                try await social.like(try request.parameters(UserReference.self).userId, by: request.session.userID)
            },
            "discover.pass": { request throws(ProtocolError) in
                try await social.pass(try request.parameters(UserReference.self).userId, by: request.session.userID)
                return EmptyPayload()
            },
            "discover.undo": { request throws(ProtocolError) in try await social.undo(by: request.session.userID) },

            // Groups
            "group.create": { request throws(ProtocolError) in
                try await groups.create(by: request.session.userID, try request.parameters(CreateParameters.self))
            },
            "group.join": { request throws(ProtocolError) in
                try await groups.join(by: request.session.userID, try request.parameters(NameReference.self))
            },
            "group.leave": { request throws(ProtocolError) in
                try await groups.leave(by: request.session.userID, try request.parameters(ConversationReference.self))
                return EmptyPayload()
            },
            "group.get": { request throws(ProtocolError) in
                try await groups.info(for: request.session.userID, try request.parameters(ConversationReference.self))
            },
            "group.members": { request throws(ProtocolError) in
                try await groups.members(for: request.session.userID, try request.parameters(GroupMembersParameters.self))
            },
            "group.update": { request throws(ProtocolError) in
                try await groups.update(by: request.session.userID, try request.parameters(GroupUpdate.self))
            },
            "group.remove": { request throws(ProtocolError) in
                try await groups.remove(by: request.session.userID, try request.parameters(MemberReference.self))
                return EmptyPayload()
            },
            "group.transfer": { request throws(ProtocolError) in
                try await groups.transfer(by: request.session.userID, try request.parameters(MemberReference.self))
            },

            // Rooms
            "room.create": { request throws(ProtocolError) in
                try await rooms.create(by: request.session.userID, try request.parameters(CreateParameters.self))
            },
            "room.enter": { request throws(ProtocolError) in
                try await rooms.enter(by: request.session.userID, try request.parameters(NameReference.self))
            },
            "room.leave": { request throws(ProtocolError) in
                try await rooms.leave(by: request.session.userID, try request.parameters(ConversationReference.self))
                return EmptyPayload()
            },
            "room.update": { request throws(ProtocolError) in
                try await rooms.update(by: request.session.userID, try request.parameters(GroupUpdate.self))
            },
            "room.occupants": { request throws(ProtocolError) in
                try await rooms.occupants(for: request.session.userID, try request.parameters(OccupantsParameters.self))
            },

            // Messages and conversations
            "message.history": { request throws(ProtocolError) in
                try await conversations.history(for: request.session.userID, try request.parameters(HistoryParameters.self))
            },
            "conversation.list": { request throws(ProtocolError) in try await conversations.list(for: request.session.userID) },
            "conversation.read": { request throws(ProtocolError) in
                try await conversations.markRead(for: request.session.userID, try request.parameters(ReadParameters.self),
                                                 connection: request.connection.token)
            },
            "sync": { request throws(ProtocolError) in
                try await conversations.sync(for: request.session.userID, try request.parameters(SyncParameters.self))
            },
        ]
    }
}

/// The `ping` operation's result.
struct Pong: Codable, Sendable {
    var time: Int64
}
