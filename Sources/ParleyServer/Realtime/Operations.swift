import Foundation
import ParleyCore
import ParleyXMPP
import ParleyProtocol

/// The server's handler for every operation of `Op` (docs/protocol.md), each a call into the
/// core. `auth` is not here: it is the connection's own first step (`ClientSession`).
enum Operations {
    static func table(accounts: AccountService, social: SocialService, conversations: ConversationService,
                      groups: GroupService, rooms: RoomService, delivery: any Delivery, activity: ClientActivity,
                      reports: ReportService, mediaAccess: MediaAccess,
                      native: NativeResources = NativeResources()) -> OperationTable {
        let table = OperationTableBuilder()

        table.on(Op.Ping.self) { _, _ in Pong(time: Int64(Date().timeIntervalSince1970 * 1000)) }

        // Profiles
        table.on(Op.MeGet.self) { context, _ throws(ProtocolError) in try await accounts.account(of: context.user) }
        table.on(Op.MeUpdate.self) { context, update throws(ProtocolError) in
            let account = try await accounts.updateProfile(of: context.user, with: update)
            // Through the delivery: the user's connections on other cluster nodes hear of it too.
            delivery.deliver(.meUpdated(account), to: [context.user], excluding: context.connection.token)
            return account
        }
        table.on(Op.UserGet.self) { _, lookup throws(ProtocolError) in
            if let id = lookup.id { return try await accounts.profile(id: id) }
            if let username = lookup.username { return try await accounts.profile(username: username) }
            throw ProtocolError(.missingField, "give an id or a username", field: "id")
        }

        // Friends and blocks
        table.on(Op.FriendRequest.self) { context, parameters throws(ProtocolError) in
            try await social.requestFriend(from: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.FriendAccept.self) { context, reference throws(ProtocolError) in
            try await social.accept(reference.requestId, by: context.user)
        }
        table.onCommand(Op.FriendDecline.self) { context, reference throws(ProtocolError) in
            try await social.decline(reference.requestId, by: context.user)
        }
        table.on(Op.FriendList.self) { context, page throws(ProtocolError) in try await social.friends(of: context.user, page) }
        table.on(Op.FriendRequests.self) { context, parameters throws(ProtocolError) in
            try await social.requests(of: context.user, parameters)
        }
        table.onCommand(Op.FriendRemove.self) { context, reference throws(ProtocolError) in
            try await social.removeFriend(reference.userId, by: context.user)
        }
        table.onCommand(Op.BlockAdd.self) { context, reference throws(ProtocolError) in try await social.block(reference.userId, by: context.user) }
        table.onCommand(Op.BlockRemove.self) { context, reference throws(ProtocolError) in
            try await social.unblock(reference.userId, by: context.user)
        }
        table.on(Op.BlockList.self) { context, page throws(ProtocolError) in try await social.blocked(by: context.user, page) }

        // Discover
        table.on(Op.DiscoverDeck.self) { context, page throws(ProtocolError) in try await social.deck(for: context.user, page) }
        table.on(Op.DiscoverLike.self) { context, reference throws(ProtocolError) in
            try await social.like(reference.userId, by: context.user)
        }
        table.onCommand(Op.DiscoverPass.self) { context, reference throws(ProtocolError) in
            try await social.pass(reference.userId, by: context.user)
        }
        table.on(Op.DiscoverUndo.self) { context, _ throws(ProtocolError) in try await social.undo(by: context.user) }

        // Groups
        table.on(Op.GroupCreate.self) { context, parameters throws(ProtocolError) in try await groups.create(by: context.user, parameters) }
        table.on(Op.GroupJoin.self) { context, reference throws(ProtocolError) in try await groups.join(by: context.user, reference) }
        table.onCommand(Op.GroupLeave.self) { context, reference throws(ProtocolError) in try await groups.leave(by: context.user, reference) }
        table.on(Op.GroupGet.self) { context, reference throws(ProtocolError) in try await groups.info(for: context.user, reference) }
        table.on(Op.GroupMembers.self) { context, parameters throws(ProtocolError) in
            try await groups.members(for: context.user, parameters)
        }
        table.on(Op.GroupUpdate.self) { context, update throws(ProtocolError) in try await groups.update(by: context.user, update) }
        table.onCommand(Op.GroupRemove.self) { context, member throws(ProtocolError) in try await groups.remove(by: context.user, member) }
        table.on(Op.GroupTransfer.self) { context, member throws(ProtocolError) in try await groups.transfer(by: context.user, member) }

        // Rooms
        table.on(Op.RoomCreate.self) { context, parameters throws(ProtocolError) in try await rooms.create(by: context.user, parameters) }
        table.on(Op.RoomEnter.self) { context, reference throws(ProtocolError) in try await rooms.enter(by: context.user, reference) }
        table.onCommand(Op.RoomLeave.self) { context, reference throws(ProtocolError) in try await rooms.leave(by: context.user, reference) }
        table.on(Op.RoomUpdate.self) { context, update throws(ProtocolError) in try await rooms.update(by: context.user, update) }
        table.on(Op.RoomOccupants.self) { context, parameters throws(ProtocolError) in
            try await rooms.occupants(for: context.user, parameters)
        }
        table.on(Op.RoomFind.self) { _, lookup throws(ProtocolError) in try await rooms.find(lookup) }

        // Messages and conversations
        // The hot path: on the connection's loop with no task, its only wait the store's
        // commit, whose outcome the writer hands back to the loop in one hop; the answer
        // carries the JSON the delivery wrote for the event.
        table.onCompletion(Op.MessageSend.self) { context, parameters, answer in
            // Which device sent it, for Jabber recipients (the `from` resource).
            native.sending(context.user, clientID: parameters.clientId, token: context.connection.token)
            conversations.send(from: context.user, parameters, connection: context.connection.token, hop: context.connection) { outcome in
                // Not `sent.encodedJSON ?? …`: the right side's closure took a copy of the
                // message whether it ran or not (docs/benchmarks.md, (ap)).
                answer(outcome.map { sent in
                    if let json = sent.encodedJSON { return json }
                    return WireJSON.encode(sent.message) ?? Array("{}".utf8)
                })
            }
        }
        table.on(Op.MessageHistory.self) { context, parameters throws(ProtocolError) in
            try await conversations.history(for: context.user, parameters)
        }
        table.on(Op.ConversationFind.self) { context, reference throws(ProtocolError) in
            try await conversations.find(for: context.user, with: reference.userId)
        }
        table.on(Op.ConversationList.self) { context, _ throws(ProtocolError) in try await conversations.list(for: context.user) }
        table.on(Op.ConversationRead.self) { context, parameters throws(ProtocolError) in
            try await conversations.markRead(for: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.Sync.self) { context, parameters throws(ProtocolError) in try await conversations.sync(for: context.user, parameters) }
        registerMessageActions(on: table, actions: conversations.actions)
        registerGovernance(on: table, groups: groups, rooms: rooms)
        registerReceipts(on: table, conversations: conversations)
        registerResources(on: table, social: social, native: native)
        registerModeration(on: table, reports: reports, groups: groups)

        PushOperations.add(to: table, conversations: conversations, activity: activity)
        registerSearch(on: table, search: conversations.search, people: social.people)
        table.on(Op.MediaURL.self) { context, parameters throws(ProtocolError) in
            try await mediaAccess.url(for: context.user, parameters)
        }

        return table.build()
    }
}
