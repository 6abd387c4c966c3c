public import Observation
public import ParleyProtocol

/// A group's info page: the group with its rules, the members with their roles, and for
/// the owner and admins the join requests, invite links and bans; what the viewer may do is
/// worked out from their role with the server's rules (an admin acts on members, the owner on
/// admins too).
@MainActor
@Observable
public final class GroupInfoViewModel {
    /// The group as last read.
    public private(set) var group: GroupInfo?
    public private(set) var members: [GroupMember] = []
    public private(set) var requests: [JoinRequest] = []
    public private(set) var invites: [GroupInvite] = []
    public private(set) var bans: [ConversationBan] = []
    /// What went wrong last.
    public private(set) var lastError: ParleyError?

    /// The viewer's role: `owner`, `admin` or `member`.
    public var role: String { group?.role ?? "member" }
    /// Whether the viewer moderates (owner or admin).
    public var moderates: Bool { role == "owner" || role == "admin" }

    /// What the viewer may do to `member` (the actions a member menu offers).
    public enum MemberAction: Sendable, Equatable { case makeAdmin, removeAdmin, remove, mute, unmute, ban }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private let conversation: ConversationID

    public init(client: ParleyClient, conversation: ConversationID) {
        self.client = client
        self.conversation = conversation
    }

    /// Reads the group, its members and, for moderators, requests, links and bans.
    public func refresh() async {
        do throws(ParleyError) {
            let group = try await client.group(conversation)
            self.group = group
            var all: [GroupMember] = []
            var cursor: String?
            repeat {
                let page = try await client.groupMembers(conversation, cursor: cursor)
                all += page.members
                cursor = page.nextCursor
            } while cursor != nil
            members = all
            if group.role == "owner" || group.role == "admin" {
                requests = try await client.joinRequests(conversation)
                invites = try await client.invites(conversation)
                bans = try await client.bans(conversation)
            } else {
                (requests, invites, bans) = ([], [], [])
            }
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// The actions the viewer may take on `member`, in menu order.
    public func actions(for member: GroupMember, me: UserID) -> [MemberAction] {
        guard moderates, member.user.id != me else { return [] }
        let rank = ["owner": 2, "admin": 1, "member": 0]
        guard (rank[role] ?? 0) > (rank[member.role] ?? 0) else { return [] }
        var actions: [MemberAction] = []
        if role == "owner" { actions.append(member.role == "admin" ? .removeAdmin : .makeAdmin) }
        actions += [.remove, member.mutedUntil == nil ? .mute : .unmute, .ban]
        return actions
    }

    /// Performs `action` on `member` (a mute lasts `muteSeconds`), then reads the page again.
    public func perform(_ action: MemberAction, on member: UserID, muteSeconds: Int64 = 3600, now: Int64) async {
        do throws(ParleyError) {
            switch action {
            case .makeAdmin: try await client.makeAdmin(member, in: conversation)
            case .removeAdmin: try await client.removeAdmin(member, in: conversation)
            case .remove: try await client.removeMember(member, from: conversation)
            case .mute: try await client.mute(member, in: conversation, until: now + muteSeconds * 1000)
            case .unmute: try await client.unmute(member, in: conversation)
            case .ban: try await client.ban(member, from: conversation)
            }
        } catch {
            lastError = error
            return
        }
        await refresh()
    }

    /// Accepts or declines a join request.
    public func answer(_ request: JoinRequest, accept: Bool) async {
        do throws(ParleyError) {
            try await client.answerJoinRequest(of: request.user.id, in: conversation, accept: accept)
        } catch {
            lastError = error
            return
        }
        await refresh()
    }

    /// Makes an invite link; returns it.
    @discardableResult
    public func createInvite(expiresIn: Int? = nil, maxUses: Int? = nil) async -> GroupInvite? {
        do throws(ParleyError) {
            let invite = try await client.createInvite(conversation, expiresIn: expiresIn, maxUses: maxUses)
            await refresh()
            return invite
        } catch {
            lastError = error
            return nil
        }
    }

    /// Revokes an invite link.
    public func revoke(_ invite: GroupInvite) async {
        do throws(ParleyError) {
            try await client.revokeInvite(invite.token)
        } catch {
            lastError = error
            return
        }
        await refresh()
    }

    /// Changes who may join and whether newcomers see earlier history.
    public func setPolicy(joinMode: GroupJoinMode? = nil, showHistory: Bool? = nil) async {
        do throws(ParleyError) {
            group = try await client.updateGroup(GroupUpdate(conversationId: conversation, joinMode: joinMode, showHistory: showHistory))
        } catch {
            lastError = error
        }
    }
}
