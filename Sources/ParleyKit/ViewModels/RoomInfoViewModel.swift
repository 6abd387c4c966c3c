public import Observation
public import ParleyProtocol

/// A room's info page: the room, who is in it, its admins, and for its creator and admins
/// the bans; what the viewer may do to an occupant is worked out with the server's rule (an
/// admin acts on occupants, the creator on admins too, nobody on the creator).
@MainActor
@Observable
public final class RoomInfoViewModel {
    /// The viewer's standing in the room.
    public enum Role: Sendable, Equatable {
        case creator, admin, occupant

        /// Who outranks whom: an action needs a higher rank than its target's.
        var rank: Int {
            switch self {
            case .creator: 2
            case .admin: 1
            case .occupant: 0
            }
        }
    }

    /// What the viewer may do to an occupant (the actions a menu offers).
    public enum OccupantAction: Sendable, Equatable { case makeAdmin, removeAdmin, kick, ban }

    /// The room as last read.
    public private(set) var room: RoomInfo?
    /// Who is in the room now.
    public private(set) var occupants: [UserProfile] = []
    /// The admins the creator appointed (the creator is not among them).
    public private(set) var admins: [UserProfile] = []
    /// The bans, oldest first (read by the creator and admins only).
    public private(set) var bans: [ConversationBan] = []
    /// What went wrong last.
    public private(set) var lastError: ParleyError?

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private let conversation: ConversationID
    @ObservationIgnored private var me: UserID?

    public init(client: ParleyClient, conversation: ConversationID) {
        self.client = client
        self.conversation = conversation
    }

    /// The viewer's role, as last read.
    public var role: Role { role(of: me) }
    /// Whether the viewer moderates (creator or admin).
    public var moderates: Bool { role != .occupant }

    /// The role of `user` in the room.
    public func role(of user: UserID?) -> Role {
        guard let user else { return .occupant }
        if room?.ownerId == user { return .creator }
        return admins.contains { $0.id == user } ? .admin : .occupant
    }

    /// Reads the room, its occupants and admins, and for moderators its bans.
    public func refresh() async {
        do throws(ParleyError) {
            me = await client.account?.profile.id
            room = try await client.findRoom(conversation)
            occupants = try await client.roomOccupants(conversation)
            admins = try await client.roomAdmins(conversation)
            bans = moderates ? try await client.roomBans(conversation) : []
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// The actions the viewer may take on `user`, in menu order.
    public func actions(for user: UserID) -> [OccupantAction] {
        guard user != me, role.rank > role(of: user).rank else { return [] }
        var actions: [OccupantAction] = []
        if role == .creator { actions.append(role(of: user) == .admin ? .removeAdmin : .makeAdmin) }
        if occupants.contains(where: { $0.id == user }) { actions.append(.kick) }
        actions.append(.ban)
        return actions
    }

    /// Performs `action` on `user` (a ban with `reason`, if any), then reads the page again.
    public func perform(_ action: OccupantAction, on user: UserID, reason: String? = nil) async {
        await run { () throws(ParleyError) in
            switch action {
            case .makeAdmin: try await client.makeRoomAdmin(user, in: conversation)
            case .removeAdmin: try await client.removeRoomAdmin(user, in: conversation)
            case .kick: try await client.kick(user, from: conversation, reason: reason)
            case .ban: try await client.kick(user, from: conversation, ban: true, reason: reason)
            }
        }
    }

    /// Lifts a ban.
    public func lift(_ ban: ConversationBan) async {
        await run { () throws(ParleyError) in try await client.unbanFromRoom(ban.user.id, room: conversation) }
    }

    /// Renames the room or changes its description (anyone in it may).
    public func update(name: FieldPatch<String> = .unchanged, description: FieldPatch<String> = .unchanged) async {
        do throws(ParleyError) {
            room = try await client.updateRoom(GroupUpdate(conversationId: conversation, name: name, description: description))
            lastError = nil
        } catch {
            lastError = error
        }
    }

    private func run(_ work: () async throws(ParleyError) -> Void) async {
        do throws(ParleyError) {
            try await work()
        } catch {
            lastError = error
            return
        }
        await refresh()
    }
}
