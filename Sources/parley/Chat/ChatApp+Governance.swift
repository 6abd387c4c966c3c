import Foundation
import ParleyKit
import ParleyProtocol

// Moderation in `parley chat` (docs/protocol.md, "Group governance"): commands typed in a
// group's or room's dialogue, naming people by username; each verb is the group's operation
// or the room's (a room's creator and admins kick, ban and unban; its creator appoints
// admins). The server decides who may; its refusal (`not_admin`, `banned`, …) shows as the
// flash. `/admins` and `/bans` show the lists.
extension ChatApp {
    /// The commands and their usage, in the reader's language.
    var moderationUsage: String {
        language.pick("/invite [NAME] · /kick NAME · /ban NAME [reason] · /unban NAME · /bans · /mute NAME MINUTES · /unmute NAME · /admin NAME · /unadmin NAME · /admins · /joinlink TOKEN",
                      "/invite [用户名] · /kick 用户名 · /ban 用户名 [原因] · /unban 用户名 · /bans · /mute 用户名 分钟 · /unmute 用户名 · /admin 用户名 · /unadmin 用户名 · /admins · /joinlink 邀请码")
    }

    /// Runs `command` if it is a moderation command; false if it is not one.
    func runModeration(_ command: String, in dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        let verbs = ["/invite", "/kick", "/ban", "/unban", "/bans", "/mute", "/unmute", "/admin", "/unadmin", "/admins", "/joinlink", "/moderation"]
        guard let verb = parts.first, verbs.contains(verb) else { return false }
        let name = parts.count > 1 ? parts[1] : nil
        let rest = parts.count > 2 ? parts[2] : nil
        let needsName = !["/invite", "/moderation", "/bans", "/admins"].contains(verb)
        guard verb != "/moderation", !needsName || name != nil else {
            showFlash(moderationUsage, isError: verb != "/moderation", seconds: 8)
            return true
        }
        let minutes = verb == "/mute" ? rest.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } : nil
        if verb == "/mute", (minutes ?? 0) <= 0 {
            showFlash(moderationUsage, isError: true, seconds: 8)
            return true
        }
        let client = self.client
        let conversation = dialogue.conversationId
        let language = self.language
        Task {
            let isRoom = await dialogue.knownKind() == .room
            do throws(ParleyError) {
                if verb == "/bans" || verb == "/admins" {
                    let line = verb == "/bans" ? try await banListLine(conversation, isRoom: isRoom)
                                               : try await adminListLine(conversation, isRoom: isRoom)
                    showFlash(line, seconds: 15)
                    return
                }
                if verb == "/joinlink", let name {
                    let preview = try await client.previewInvite(name)
                    _ = try await client.joinGroup(invite: name)
                    showFlash(language.pick("Joined \(preview.name) (\(preview.memberCount + 1) members)",
                                            "已加入 \(preview.name)（\(preview.memberCount + 1) 人）"))
                    return
                }
                if verb == "/invite", name == nil {
                    let link = try await client.createInvite(conversation)
                    showFlash(language.pick("Invite link: \(link.token) (join with /joinlink \(link.token))",
                                            "邀请链接：\(link.token)（用 /joinlink \(link.token) 加入）"), seconds: 20)
                    return
                }
                guard let name else { return }
                let user = try await client.user(username: name).id
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                switch verb {
                case "/invite": _ = try await client.inviteFriend(user, to: conversation)
                case "/kick" where isRoom: try await client.kick(user, from: conversation)
                case "/kick": try await client.removeMember(user, from: conversation)
                case "/ban" where isRoom: try await client.kick(user, from: conversation, ban: true, reason: rest)
                case "/ban": try await client.ban(user, from: conversation, reason: rest)
                case "/unban" where isRoom: try await client.unbanFromRoom(user, room: conversation)
                case "/unban": try await client.unban(user, from: conversation)
                case "/mute": try await client.mute(user, in: conversation, until: now + (minutes ?? 0) * 60_000)
                case "/unmute": try await client.unmute(user, in: conversation)
                case "/admin" where isRoom: try await client.makeRoomAdmin(user, in: conversation)
                case "/admin": try await client.makeAdmin(user, in: conversation)
                case _ where isRoom: try await client.removeRoomAdmin(user, in: conversation)
                default: try await client.removeAdmin(user, in: conversation)
                }
                showFlash(verb == "/invite" ? language.pick("Invited \(name)", "已邀请 \(name)") : language.pick("Done", "已完成"))
            } catch {
                showFlash(describeModeration(error, inRoom: isRoom), isError: true)
            }
        }
        return true
    }

    /// `/bans`: who is barred, with the reasons given (the owner's and admins' list).
    private func banListLine(_ conversation: ConversationID, isRoom: Bool) async throws(ParleyError) -> String {
        let bans = isRoom ? try await client.roomBans(conversation) : try await client.bans(conversation)
        guard !bans.isEmpty else { return language.pick("Nobody is banned", "黑名单为空") }
        let names = bans.map { ban in
            ban.reason.map { language.pick("\(ban.user.displayName) (\($0))", "\(ban.user.displayName)（\($0)）") } ?? ban.user.displayName
        }
        return language.pick("Banned: ", "黑名单：") + names.joined(separator: language.pick(", ", "、"))
    }

    /// `/admins`: the owner (a room's creator) and the admins.
    private func adminListLine(_ conversation: ConversationID, isRoom: Bool) async throws(ParleyError) -> String {
        var owner: String?
        var admins: [String] = []
        if isRoom {
            admins = try await client.roomAdmins(conversation).map(\.displayName)
            let creator = try? await client.cachedRooms().first { $0.id == conversation }?.ownerId
            if let creator { owner = await client.profile(of: creator)?.displayName ?? "ID: \(creator)" }
        } else {
            var cursor: String?
            repeat {
                let page = try await client.groupMembers(conversation, cursor: cursor)
                owner = page.members.first { $0.role == "owner" }?.user.displayName ?? owner
                admins += page.members.filter { $0.role == "admin" }.map(\.user.displayName)
                cursor = page.nextCursor
            } while cursor != nil
        }
        let list = admins.isEmpty ? language.pick("none", "无") : admins.joined(separator: language.pick(", ", "、"))
        let head = owner.map { isRoom ? language.pick("Creator: \($0) · ", "创建者：\($0) · ") : language.pick("Owner: \($0) · ", "群主：\($0) · ") } ?? ""
        return head + language.pick("Admins: ", "管理员：") + list
    }

    /// A refusal in the reader's language: the governance codes worded here (a room's roles
    /// with `inRoom`), others as usual.
    func describeModeration(_ error: ParleyError, inRoom: Bool = false) -> String {
        switch error.code {
        case .notAdmin? where inRoom: language.pick("Only the room's creator or an admin may do that", "只有聊天室创建者或管理员可以这样做")
        case .notOwner? where inRoom: language.pick("Only the room's creator may do that", "只有聊天室创建者可以这样做")
        case .notAdmin?: language.pick("Only the owner or an admin may do that", "只有群主或管理员可以这样做")
        case .notOwner?: language.pick("Only the owner may do that", "只有群主可以这样做")
        case .banned?: language.pick("You are banned there", "你已被禁止加入")
        case .muted?: language.pick("You are muted in this group", "你在本群已被禁言")
        case .inviteOnly?: language.pick("This group is joined by invitation only", "本群仅限邀请加入")
        case .inviteExpired?: language.pick("This invite has expired", "邀请已过期")
        case .inviteUsedUp?: language.pick("This invite was used up", "邀请次数已用完")
        case .inviteRevoked?: language.pick("This invite was revoked", "邀请已被撤销")
        case .tooManyAdmins?: language.pick("The group has as many admins as it may", "管理员人数已达上限")
        case .notFriends?: language.pick("You can invite only your friends", "只能邀请好友")
        default: describe(error)
        }
    }

    /// The line a governance event shows as a flash, in the reader's language.
    func governanceNotice(_ event: ParleyEvent) async -> String? {
        switch event {
        case .groupInvited(let invitation):
            let inviter = await client.profile(of: invitation.inviter)?.displayName ?? "ID: \(invitation.inviter)"
            return language.pick("\(inviter) invited you to \(invitation.group.name) — /joinlink \(invitation.token)",
                                 "\(inviter) 邀请你加入 \(invitation.group.name) — /joinlink \(invitation.token)")
        case .groupRequestDecided(let decision):
            return decision.state == "accepted"
                ? language.pick("Your request to join \(decision.group?.name ?? "the group") was accepted",
                                "你加入 \(decision.group?.name ?? "群聊") 的申请已通过")
                : language.pick("Your request to join a group was declined", "你的入群申请被拒绝了")
        case .roomKicked(let kick):
            return kick.banned ? language.pick("You were banned from the room", "你已被禁止进入聊天室")
                               : language.pick("You were removed from the room", "你已被移出聊天室")
        default:
            return nil
        }
    }
}
