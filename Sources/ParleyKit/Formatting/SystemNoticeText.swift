public import ParleyProtocol

/// The wording of system notifications in the reader's language. The server sends only what
/// happened (`type`, `actor`, `target`…); every client words it the same way, the web client's
/// rule for Chinese included (`spaced`); a group's or room's name is set off by
/// `ParleyLanguage.quoted`.
public enum SystemNoticeText {
    /// The sentence for `notice`. `name` turns a user id into a display name; the reader
    /// (`me`) is called "You". `kind` is the conversation's, where known: a notice the
    /// server words alike for groups and rooms (a removal) names the right one.
    public static func text(for notice: SystemNotice, me: UserID? = nil, language: ParleyLanguage = .english,
                            in kind: ConversationKind? = nil, name: (UserID) -> String) -> String {
        let words = sentence(for: notice, me: me, language: language, in: kind, name: name)
        guard language == .chinese else { return words }
        // A Latin name at the start or the end leaves a space there, and two names side by side one.
        return words.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Chinese writes a name straight against the words around it (你撤回了一条消息, 小林加入了群聊)
    /// except that a name starting or ending in a Latin letter or digit is set apart by a space on
    /// that side (Mei 将 Lin 移出了群聊); English names are left as they are.
    static func spaced(_ name: String, language: ParleyLanguage) -> String {
        guard language == .chinese, let first = name.unicodeScalars.first, let last = name.unicodeScalars.last else { return name }
        func latin(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) }
        return (latin(first) ? " " : "") + name + (latin(last) ? " " : "")
    }

    private static func sentence(for notice: SystemNotice, me: UserID?, language: ParleyLanguage,
                                 in kind: ConversationKind?, name: (UserID) -> String) -> String {
        func who(_ id: UserID?) -> String {
            guard let id else { return language.pick("Someone", "有人") }
            if id == me { return language.pick("You", "你") }
            return spaced(name(id), language: language)
        }
        let actor = who(notice.actor)
        let target = who(notice.target)
        let title = notice.name.map(language.quoted) ?? ""
        switch notice.type {
        case .friendAdded:
            // Shown in the pair's own conversation, where "you two" needs no names.
            return language.pick("You are now friends. Say hello!", "你们已经是好友了，打个招呼吧")
        case .matched:
            return language.pick("You liked each other. Say hi!", "你们互相喜欢，打个招呼吧")
        case .groupCreated:
            return language.pick("\(actor) created the group \(title)", "\(actor)创建了群聊\(title)")
        case .memberJoined:
            return language.pick("\(actor) joined the group", "\(actor)加入了群聊")
        case .memberLeft:
            return language.pick("\(actor) left the group", "\(actor)退出了群聊")
        case .memberRemoved where kind == .room:
            return language.pick("\(actor) removed \(target) from the room", "\(actor)将\(target)移出了聊天室")
        case .memberRemoved:
            return language.pick("\(actor) removed \(target) from the group", "\(actor)将\(target)移出了群聊")
        case .ownerChanged:
            return language.pick("\(actor) made \(target) the group's owner", "\(actor)将群主转让给了\(target)")
        case .infoChanged:
            return infoChanged(actor: actor, fields: notice.fields ?? [], newName: notice.name, language: language)
        case .roomCreated:
            return language.pick("\(actor) created the room \(title)", "\(actor)创建了聊天室\(title)")
        case .roomEntered:
            return language.pick("\(actor) entered the room", "\(actor)进入了聊天室")
        case .roomLeft:
            return language.pick("\(actor) left the room", "\(actor)离开了聊天室")
        case .groupDisbanded:
            return language.pick("\(actor) disbanded the group", "\(actor)解散了群聊")
        case .messageRecalled:
            return language.pick("\(actor) recalled a message", "\(actor)撤回了一条消息")
        case .messageEdited:
            return language.pick("\(actor) edited a message", "\(actor)编辑了一条消息")
        case .reactionAdded:
            return language.pick("\(actor) reacted \(notice.emoji ?? "")", "\(actor)回应了 \(notice.emoji ?? "")")
        case .reactionRemoved:
            return language.pick("\(actor) removed a reaction", "\(actor)取消了回应")
        case .messagePinned:
            return language.pick("\(actor) pinned a message", "\(actor)置顶了一条消息")
        case .messageUnpinned:
            return language.pick("\(actor) unpinned a message", "\(actor)取消置顶了一条消息")
        case .messageListened:
            return language.pick("\(actor) listened to a voice message", "\(actor)听了一条语音")
        case .adminAdded:
            return language.pick("\(actor) made \(target) an admin", "\(actor)将\(target)设为管理员")
        case .adminRemoved:
            return language.pick("\(actor) removed \(target) as admin", "\(actor)取消了\(target)的管理员身份")
        case .memberBanned:
            return language.pick("\(actor) banned \(target)", "\(actor)将\(target)加入了黑名单")
        case .memberUnbanned:
            return language.pick("\(actor) lifted the ban on \(target)", "\(actor)将\(target)移出了黑名单")
        case .memberMuted:
            return language.pick("\(actor) muted \(target)", "\(actor)将\(target)禁言")
        case .memberUnmuted:
            return language.pick("\(actor) unmuted \(target)", "\(actor)解除了\(target)的禁言")
        case .joinRequested:
            return language.pick("\(actor) asked to join the group", "\(actor)申请加入群聊")
        case .joinDeclined:
            return language.pick("\(actor) declined \(target)'s request to join", "\(actor)拒绝了\(target)的入群申请")
        }
    }

    private static func infoChanged(actor: String, fields: [String], newName: String?, language: ParleyLanguage) -> String {
        if fields == ["name"], let newName {
            return language.pick("\(actor) renamed the group to " + language.quoted(newName), "\(actor)将群名改为" + language.quoted(newName))
        }
        let english = ["name": "name", "avatar": "avatar", "description": "description", "joinMode": "join rule",
                       "showHistory": "history setting"]
        let chinese = ["name": "群名称", "avatar": "群头像", "description": "群介绍", "joinMode": "入群方式", "showHistory": "历史消息设置"]
        let known = fields.filter { english[$0] != nil }
        guard !known.isEmpty else { return language.pick("\(actor) changed the group's info", "\(actor)修改了群资料") }
        if language == .chinese {
            return "\(actor)修改了" + known.compactMap { chinese[$0] }.joined(separator: "、")
                + (newName.map { "，新名称为" + language.quoted($0) } ?? "")
        }
        let names = known.compactMap { english[$0] }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        return "\(actor) changed the group's \(list)" + (newName.map { " (now \(language.quoted($0)))" } ?? "")
    }
}
