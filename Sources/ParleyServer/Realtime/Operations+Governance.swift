import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handlers of group governance and room moderation (docs/protocol.md, "Group
    /// governance"), each a call into the core, where the rules live.
    static func registerGovernance(on table: OperationTableBuilder, groups: GroupService, rooms: RoomService) {
        table.onCommand(Op.GroupAdminAdd.self) { context, member throws(ProtocolError) in try await groups.addAdmin(by: context.user, member) }
        table.onCommand(Op.GroupAdminRemove.self) { context, member throws(ProtocolError) in try await groups.removeAdmin(by: context.user, member) }
        table.on(Op.GroupRequests.self) { context, reference throws(ProtocolError) in try await groups.requests(for: context.user, reference) }
        table.onCommand(Op.GroupRequestAccept.self) { context, member throws(ProtocolError) in
            try await groups.acceptRequest(by: context.user, member)
        }
        table.onCommand(Op.GroupRequestDecline.self) { context, member throws(ProtocolError) in
            try await groups.declineRequest(by: context.user, member)
        }
        table.on(Op.GroupInviteCreate.self) { context, parameters throws(ProtocolError) in
            try await groups.createInvite(by: context.user, parameters)
        }
        table.on(Op.GroupInvites.self) { context, reference throws(ProtocolError) in try await groups.invites(for: context.user, reference) }
        table.onCommand(Op.GroupInviteRevoke.self) { context, token throws(ProtocolError) in try await groups.revokeInvite(by: context.user, token) }
        table.on(Op.GroupInvitePreview.self) { context, token throws(ProtocolError) in try await groups.preview(for: context.user, token) }
        table.on(Op.GroupInviteJoin.self) { context, token throws(ProtocolError) in try await groups.join(by: context.user, token) }
        table.on(Op.GroupInviteFriend.self) { context, member throws(ProtocolError) in
            try await groups.inviteFriend(by: context.user, member)
        }
        table.onCommand(Op.GroupBan.self) { context, parameters throws(ProtocolError) in try await groups.ban(by: context.user, parameters) }
        table.onCommand(Op.GroupUnban.self) { context, member throws(ProtocolError) in try await groups.unban(by: context.user, member) }
        table.on(Op.GroupBans.self) { context, reference throws(ProtocolError) in try await groups.bans(for: context.user, reference) }
        table.onCommand(Op.GroupMute.self) { context, parameters throws(ProtocolError) in try await groups.mute(by: context.user, parameters) }
        table.onCommand(Op.GroupUnmute.self) { context, member throws(ProtocolError) in try await groups.unmute(by: context.user, member) }
        table.onCommand(Op.RoomKick.self) { context, parameters throws(ProtocolError) in try await rooms.kick(by: context.user, parameters) }
        table.onCommand(Op.RoomBan.self) { context, parameters throws(ProtocolError) in try await rooms.ban(by: context.user, parameters) }
        table.onCommand(Op.RoomUnban.self) { context, member throws(ProtocolError) in try await rooms.unban(by: context.user, member) }
        table.on(Op.RoomBans.self) { context, reference throws(ProtocolError) in try await rooms.bans(for: context.user, reference) }
        table.onCommand(Op.RoomAdminAdd.self) { context, member throws(ProtocolError) in try await rooms.addAdmin(by: context.user, member) }
        table.onCommand(Op.RoomAdminRemove.self) { context, member throws(ProtocolError) in try await rooms.removeAdmin(by: context.user, member) }
        table.on(Op.RoomAdmins.self) { context, reference throws(ProtocolError) in try await rooms.admins(for: context.user, reference) }
    }
}
