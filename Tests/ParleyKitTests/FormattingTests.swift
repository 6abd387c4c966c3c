import Foundation
import ParleyCore
import ParleyKit
import ParleyProtocol
import Testing

@Suite("Formatting: time labels, days, emoticons, notices")
struct FormattingTests {
    let utc = MessageTimeFormatter(timeZone: TimeZone(identifier: "UTC")!)
    /// 2025-03-10 12:00:00 UTC.
    let now = Date(timeIntervalSince1970: 1_741_608_000)

    func ms(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    @Test("HH:mm:ss under four hours old, yyyy-MM-dd HH:mm:ss from four hours on")
    func timeLabels() {
        #expect(utc.label(for: ms(now.addingTimeInterval(-5)), now: now) == "11:59:55")
        #expect(utc.label(for: ms(now.addingTimeInterval(-(4 * 3600 - 1))), now: now) == "08:00:01")
        #expect(utc.label(for: ms(now.addingTimeInterval(-4 * 3600)), now: now) == "2025-03-10 08:00:00")
        #expect(utc.label(for: ms(now.addingTimeInterval(-3 * 86400)), now: now) == "2025-03-07 12:00:00")
        // A sender's clock a little ahead still reads as new.
        #expect(utc.label(for: ms(now.addingTimeInterval(30)), now: now) == "12:00:30")
    }

    @Test("day titles and the sessions list's short labels")
    func days() {
        #expect(utc.dayTitle(for: ms(now.addingTimeInterval(-3600)), now: now) == "Today")
        #expect(utc.dayTitle(for: ms(now.addingTimeInterval(-86400)), now: now, language: .chinese) == "昨天")
        #expect(utc.dayTitle(for: ms(now.addingTimeInterval(-2 * 86400)), now: now) == "2025-03-08")
        #expect(utc.shortLabel(for: ms(now.addingTimeInterval(-90)), now: now) == "11:58")
        #expect(utc.shortLabel(for: ms(now.addingTimeInterval(-86400)), now: now) == "Yesterday")
    }

    @Test("dialogue layout: grouped by day, notices apart, self marked, duplicates dropped")
    func layout() {
        let me = UserID(1)
        let other = UserID(2)
        let conversation = ConversationID(7)
        func message(_ seq: Int64, _ ago: TimeInterval, sender: UserID?, text: String? = nil, system: SystemNotice? = nil) -> Message {
            Message(id: "m\(seq)", conversationId: conversation, seq: seq, sender: sender, clientId: nil,
                    kind: system == nil ? .text : .system, text: text, system: system, createdAt: ms(now.addingTimeInterval(-ago)))
        }
        let messages = [
            message(3, 3600, sender: other, text: "morning :)"),
            message(1, 2 * 86400, sender: nil, system: SystemNotice(type: .friendAdded, actor: other, target: me)),
            message(2, 2 * 86400 - 60, sender: me, text: "hi <3"),
            message(3, 3600, sender: other, text: "morning :)"),
            message(4, 60, sender: me, text: "see http://x.y/:)"),
        ]
        let layout = DialogueLayout(me: me, formatter: utc)
        let sections = layout.sections(for: messages, now: now) { $0 == other ? "Mei" : "ID: \($0)" }
        #expect(sections.map(\.title) == ["2025-03-08", "Today"])
        #expect(sections.map { $0.items.map(\.seq) } == [[1, 2], [3, 4]])
        guard case .notice(let notice) = sections[0].items[0] else {
            Issue.record("the system message is not a notice")
            return
        }
        #expect(notice.text == "You are now friends. Say hello!")
        guard case .message(let mine) = sections[0].items[1], case .message(let theirs) = sections[1].items[0],
              case .message(let link) = sections[1].items[1] else {
            Issue.record("chat messages are not bubbles")
            return
        }
        #expect(mine.isSelf && !theirs.isSelf)
        #expect(mine.text == "hi ❤️")
        #expect(mine.timeLabel == "2025-03-08 12:01:00")
        #expect(theirs.senderName == "Mei")
        #expect(theirs.text == "morning 🙂")
        #expect(theirs.timeLabel == "11:00:00")
        #expect(link.text == "see http://x.y/:)")
    }

    @Test("emoticons become emoji only where they are smileys")
    func emoticons() {
        #expect(Emoticons.emojify("hello :) and :( ;) :D :P <3") == "hello 🙂 and 🙁 😉 😄 😛 ❤️")
        #expect(Emoticons.emojify("great:)") == "great🙂")
        #expect(Emoticons.emojify(":-) XD") == "🙂 😆")
        #expect(Emoticons.emojify("x<30 :Pizza XDR https://a.b/:P") == "x<30 :Pizza XDR https://a.b/:P")
        #expect(Emoticons.emojify("plain text") == "plain text")
    }

    @Test("a device reads as its name, not its Jabber resource, in English and Chinese")
    func deviceNames() {
        let native = ResourcePresence(resource: "Chrome on Linux.k3f9x2", available: true, client: ResourcePresence.parleyClient)
        #expect(DeviceNameText.text(for: native, language: .english) == "Chrome on Linux")
        #expect(DeviceNameText.text(for: native, language: .chinese) == "Linux 上的 Chrome")
        let jabber = ResourcePresence(resource: "gajim.home", available: true, client: ResourcePresence.xmppClient)
        #expect(DeviceNameText.text(for: jabber, language: .chinese) == "gajim.home")
        let chat = ResourcePresence(resource: "parley-chat.ab12cd", available: true, client: ResourcePresence.parleyClient)
        #expect(DeviceNameText.text(for: chat, language: .chinese) == "parley-chat")
        // A typed name's punctuation reads as typed: "Bob's iPhone", not "Bob s iPhone".
        let typed = ResourcePresence(resource: "Bob's iPhone (2).q1w2e3", available: true, client: ResourcePresence.parleyClient)
        #expect(DeviceNameText.text(for: typed, language: .chinese) == "Bob's iPhone (2)")
        let dotted = ResourcePresence(resource: "Dr. Wi-Fi.q1w2e3", available: true, client: ResourcePresence.parleyClient)
        #expect(DeviceNameText.text(for: dotted, language: .english) == "Dr. Wi-Fi")
        #expect(DeviceNameText.text(deviceName: "Firefox on Windows", language: .chinese) == "Windows 上的 Firefox")
        #expect(DeviceNameText.text(deviceName: "Old laptop", language: .chinese) == "Old laptop")
    }

    @Test("only a device name the server made up is worded in Chinese; a typed one reads as typed")
    func typedDeviceNames() {
        for typed in ["Bob on holiday", "Work on Linux", "Chrome on my desk", "Bob's iPhone", "Firefox  on Linux"] {
            #expect(DeviceNameText.text(deviceName: typed, language: .chinese) == typed)
        }
        // Every "<browser> on <system>" the server makes (ParleyCore's `DeviceName`) is worded.
        #expect(DeviceName.browserNames.count >= 6 && DeviceName.systemNames.count >= 7)
        for browser in DeviceName.browserNames {
            for system in DeviceName.systemNames {
                #expect(DeviceNameText.text(deviceName: "\(browser) on \(system)", language: .chinese) == "\(system) 上的 \(browser)")
                #expect(DeviceNameText.text(deviceName: "\(browser) on \(system)", language: .english) == "\(browser) on \(system)")
            }
        }
    }

    @Test("system notices are worded in English and Chinese, with 'You' for the reader")
    func notices() {
        let names: (UserID) -> String = { $0 == UserID(2) ? "Mei" : "Lin" }
        let joined = SystemNotice(type: .memberJoined, actor: UserID(2))
        #expect(SystemNoticeText.text(for: joined, name: names) == "Mei joined the group")
        #expect(SystemNoticeText.text(for: joined, language: .chinese, name: names) == "Mei 加入了群聊")
        let renamed = SystemNotice(type: .infoChanged, actor: UserID(1), fields: ["name"], name: "Tea")
        #expect(SystemNoticeText.text(for: renamed, me: UserID(1), name: names) == "You renamed the group to “Tea”")
        #expect(SystemNoticeText.text(for: renamed, me: UserID(1), language: .chinese, name: names) == "你将群名改为「Tea」")
        let changed = SystemNotice(type: .infoChanged, actor: UserID(3), fields: ["avatar", "description"])
        #expect(SystemNoticeText.text(for: changed, name: names) == "Lin changed the group's avatar and description")
        // Chinese writes 你 and a Chinese name against the words, sets a Latin name apart by a space
        // (as the web client does), and puts 「」 around a group's name.
        let recalled = SystemNotice(type: .messageRecalled, actor: UserID(1))
        #expect(SystemNoticeText.text(for: recalled, me: UserID(1), language: .chinese, name: names) == "你撤回了一条消息")
        let created = SystemNotice(type: .groupCreated, actor: UserID(2), name: "茶话会")
        #expect(SystemNoticeText.text(for: created, language: .chinese, name: names) == "Mei 创建了群聊「茶话会」")
        #expect(SystemNoticeText.text(for: created, name: names) == "Mei created the group “茶话会”")
        let muted = SystemNotice(type: .memberMuted, actor: UserID(1), target: UserID(3))
        #expect(SystemNoticeText.text(for: muted, me: UserID(1), language: .chinese, name: { _ in "小林" }) == "你将小林禁言")
        #expect(SystemNoticeText.text(for: muted, language: .chinese, name: { $0 == UserID(1) ? "小美" : "Lin" }) == "小美将 Lin 禁言")
        #expect(SystemNoticeText.text(for: muted, me: UserID(3), language: .chinese, name: { _ in "Mei" }) == "Mei 将你禁言")
        let removed = SystemNotice(type: .memberRemoved, actor: UserID(2), target: UserID(3))
        #expect(SystemNoticeText.text(for: removed, language: .chinese, name: names) == "Mei 将 Lin 移出了群聊")
        // The server words a kick from a room as a removal; the reader's client names the room.
        #expect(SystemNoticeText.text(for: removed, in: .room, name: names) == "Mei removed Lin from the room")
        #expect(SystemNoticeText.text(for: removed, language: .chinese, in: .room, name: names) == "Mei 将 Lin 移出了聊天室")
        #expect(SystemNoticeText.text(for: removed, in: .group, name: names) == "Mei removed Lin from the group")
        let kick = Message(id: "m9", conversationId: ConversationID(4), seq: 9, sender: nil, clientId: nil, kind: .system,
                           system: removed, createdAt: ms(now))
        guard case .notice(let notice) = DialogueLayout(me: nil, kind: .room).item(for: kick, now: now, name: names) else {
            Issue.record("a system message is laid out as a notice")
            return
        }
        #expect(notice.text == "Mei removed Lin from the room")
        #expect(MessagePreview.badge(0) == "" && MessagePreview.badge(7) == "7" && MessagePreview.badge(120) == "99+")
    }

    @Test("a notice keeps the spaces inside a name; Chinese sets only a Latin edge apart from its words")
    func noticeSpacingKeepsNames() {
        let removed = SystemNotice(type: .memberRemoved, actor: UserID(2), target: UserID(3))
        let names: (UserID) -> String = { $0 == UserID(2) ? "Ann  Lee" : "小林Lin" }
        #expect(SystemNoticeText.text(for: removed, language: .chinese, name: names) == "Ann  Lee 将小林Lin 移出了群聊")
        #expect(SystemNoticeText.text(for: removed, name: names) == "Ann  Lee removed 小林Lin from the group")
        let joined = SystemNotice(type: .memberJoined, actor: UserID(3))
        #expect(SystemNoticeText.text(for: joined, language: .chinese, name: names) == "小林Lin 加入了群聊")
        let muted = SystemNotice(type: .memberMuted, actor: UserID(3), target: UserID(2))
        #expect(SystemNoticeText.text(for: muted, language: .chinese, name: names) == "小林Lin 将 Ann  Lee 禁言")
        // A name with its own edge spaces keeps them; nothing is added beside a space.
        let renamed = SystemNotice(type: .infoChanged, actor: UserID(2), fields: ["name"], name: "A  B")
        #expect(SystemNoticeText.text(for: renamed, language: .chinese, name: { _ in "Mei 2" }) == "Mei 2 将群名改为「A  B」")
        let reacted = SystemNotice(type: .reactionAdded, actor: UserID(2), emoji: "👍")
        #expect(SystemNoticeText.text(for: reacted, language: .chinese, name: { _ in "Lin" }) == "Lin 回应了 👍")
    }

    @Test("reconnect delays grow exponentially, stay under the cap and carry jitter")
    func backoff() {
        let policy = ParleyClient.ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(8), multiplier: 2, jitter: 0.5)
        #expect(policy.delay(afterFailures: 1, random: 0) == .seconds(1))
        #expect(policy.delay(afterFailures: 3, random: 0) == .seconds(4))
        #expect(policy.delay(afterFailures: 10, random: 0) == .seconds(8))
        #expect(policy.delay(afterFailures: 10, random: 1) == .seconds(4))
        let spread = Set((0..<20).map { _ in policy.delay(afterFailures: 4) })
        #expect(spread.count > 1)
        #expect(spread.allSatisfy { $0 >= .seconds(4) && $0 <= .seconds(8) })
    }

    @Test("the connection banner")
    func banner() {
        #expect(ConnectionState.online.bannerText() == nil)
        #expect(ConnectionState.connecting(attempt: 2).bannerText() == "Connecting…")
        let offline = ConnectionState.offline(reason: .connectionLost(code: 1006, reason: ""), retryIn: .seconds(5))
        #expect(offline.bannerText() == "No connection — retrying in 5 s")
        #expect(offline.bannerText(language: .chinese) == "网络连接已断开，5 秒后重试")
    }
}
