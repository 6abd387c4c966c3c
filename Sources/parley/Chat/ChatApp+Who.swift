import Foundation
import ParleyKit
import ParleyProtocol

// `/who [NAME]` in `parley chat`: on which devices and Jabber clients a friend (the chat's
// other person when no name is given, or the user) is online now (`user.resources`), each
// with its show and status.
extension ChatApp {
    /// Runs `command` if it is `/who`; false if it is not.
    func whoCommand(_ command: String, in dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.first == "/who" else { return false }
        guard parts.count <= 2 else {
            showFlash(language.pick("/who [NAME]", "/who [用户名]"), isError: true)
            return true
        }
        let client = self.client
        let conversation = dialogue.conversationId
        let language = self.language
        let name = parts.count == 2 ? parts[1] : nil
        Task {
            do throws(ParleyError) {
                let user: UserProfile
                if let name {
                    user = try await client.user(username: name)
                } else if let peer = try? await client.cachedConversation(conversation)?.peer {
                    user = peer
                } else {
                    showFlash(language.pick("/who NAME (this chat has no one person)", "/who 用户名（这不是一对一聊天）"), isError: true)
                    post.yield(.changed)
                    return
                }
                let resources = try await client.fetchResources(of: user.id)
                showFlash(Self.whoLine(user.displayName, resources, language: language), seconds: 12)
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
        return true
    }

    /// "NAME is online on: phone (away) · Gajim (Jabber, dnd: busy)", or that they are on none.
    static func whoLine(_ name: String, _ resources: [ResourcePresence], language: ParleyLanguage) -> String {
        guard !resources.isEmpty else { return language.pick("\(name) is not online", "\(name) 不在线") }
        let items = resources.map { resource in
            var details: [String] = []
            if resource.client == ResourcePresence.xmppClient { details.append("Jabber") }
            if let show = resource.show { details.append(showLabel(show, language: language)) }
            if let status = resource.status, !status.isEmpty { details.append(status) }
            let shown = DeviceNameText.text(for: resource, language: language)
            return details.isEmpty ? shown : "\(shown) (\(details.joined(separator: ", ")))"
        }
        return language.pick("\(name) is online on: ", "\(name) 在线设备：") + items.joined(separator: " · ")
    }

    /// A resource's `show` in words.
    static func showLabel(_ show: String, language: ParleyLanguage) -> String {
        switch show {
        case "away": language.pick("away", "离开")
        case "chat": language.pick("free to chat", "有空聊天")
        case "dnd": language.pick("do not disturb", "请勿打扰")
        case "xa": language.pick("away for long", "长时间离开")
        default: show
        }
    }
}
