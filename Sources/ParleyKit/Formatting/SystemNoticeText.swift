public import ParleyProtocol

/// The wording of system notifications in the reader's language. The server sends only what
/// happened (`type`, `actor`, `target`…); every client words it the same way, the web client's
/// rule for Chinese included (`NoticeSentence`); a group's or room's name is set off by
/// `ParleyLanguage.quoted`.
public enum SystemNoticeText {
    /// The sentence for `notice`. `name` turns a user id into a display name; the reader
    /// (`me`) is called "You". `kind` is the conversation's, where known: a notice the
    /// server words alike for groups and rooms (a removal) names the right one.
    public static func text(for notice: SystemNotice, me: UserID? = nil, language: ParleyLanguage = .english,
                            in kind: ConversationKind? = nil, name: (UserID) -> String) -> String {
        // Chinese sets a Latin name apart by a space where it meets the template's words; a
        // name's own characters are kept as they are (`NoticeSentence`).
        sentence(for: notice, me: me, language: language, in: kind, name: name).text(spacingNames: language == .chinese)
    }

    private static func sentence(for notice: SystemNotice, me: UserID?, language: ParleyLanguage,
                                 in kind: ConversationKind?, name: (UserID) -> String) -> NoticeSentence {
        func who(_ id: UserID?) -> NoticeSentence.Person {
            guard let id else { return NoticeSentence.Person(name: language.pick("Someone", "有人")) }
            if id == me { return NoticeSentence.Person(name: language.pick("You", "你")) }
            return NoticeSentence.Person(name: name(id))
        }
        func pick(_ english: NoticeSentence, _ chinese: NoticeSentence) -> NoticeSentence {
            language == .chinese ? chinese : english
        }
        let actor = who(notice.actor)
        let target = who(notice.target)
        let title = notice.name.map(language.quoted) ?? ""
        switch notice.type {
        case .friendAdded:
            // Shown in the pair's own conversation, where "you two" needs no names.
            return pick("You are now friends. Say hello!", "你们已经是好友了，打个招呼吧")
        case .matched:
            return pick("You liked each other. Say hi!", "你们互相喜欢，打个招呼吧")
        case .groupCreated:
            return pick("\(actor) created the group \(title)", "\(actor)创建了群聊\(title)")
        case .memberJoined:
            return pick("\(actor) joined the group", "\(actor)加入了群聊")
        case .memberLeft:
            return pick("\(actor) left the group", "\(actor)退出了群聊")
        case .memberRemoved where kind == .room:
            return pick("\(actor) removed \(target) from the room", "\(actor)将\(target)移出了聊天室")
        case .memberRemoved:
            return pick("\(actor) removed \(target) from the group", "\(actor)将\(target)移出了群聊")
        case .ownerChanged:
            return pick("\(actor) made \(target) the group's owner", "\(actor)将群主转让给了\(target)")
        case .infoChanged:
            return infoChanged(actor: actor, fields: notice.fields ?? [], newName: notice.name, language: language)
        case .roomCreated:
            return pick("\(actor) created the room \(title)", "\(actor)创建了聊天室\(title)")
        case .roomEntered:
            return pick("\(actor) entered the room", "\(actor)进入了聊天室")
        case .roomLeft:
            return pick("\(actor) left the room", "\(actor)离开了聊天室")
        case .groupDisbanded:
            return pick("\(actor) disbanded the group", "\(actor)解散了群聊")
        case .messageRecalled:
            return pick("\(actor) recalled a message", "\(actor)撤回了一条消息")
        case .messageEdited:
            return pick("\(actor) edited a message", "\(actor)编辑了一条消息")
        case .reactionAdded:
            return pick("\(actor) reacted \(notice.emoji ?? "")", "\(actor)回应了 \(notice.emoji ?? "")")
        case .reactionRemoved:
            return pick("\(actor) removed a reaction", "\(actor)取消了回应")
        case .messagePinned:
            return pick("\(actor) pinned a message", "\(actor)置顶了一条消息")
        case .messageUnpinned:
            return pick("\(actor) unpinned a message", "\(actor)取消置顶了一条消息")
        case .messageListened:
            return pick("\(actor) listened to a voice message", "\(actor)听了一条语音")
        case .adminAdded:
            return pick("\(actor) made \(target) an admin", "\(actor)将\(target)设为管理员")
        case .adminRemoved:
            return pick("\(actor) removed \(target) as admin", "\(actor)取消了\(target)的管理员身份")
        case .memberBanned:
            return pick("\(actor) banned \(target)", "\(actor)将\(target)加入了黑名单")
        case .memberUnbanned:
            return pick("\(actor) lifted the ban on \(target)", "\(actor)将\(target)移出了黑名单")
        case .memberMuted:
            return pick("\(actor) muted \(target)", "\(actor)将\(target)禁言")
        case .memberUnmuted:
            return pick("\(actor) unmuted \(target)", "\(actor)解除了\(target)的禁言")
        case .joinRequested:
            return pick("\(actor) asked to join the group", "\(actor)申请加入群聊")
        case .joinDeclined:
            return pick("\(actor) declined \(target)'s request to join", "\(actor)拒绝了\(target)的入群申请")
        }
    }

    private static func infoChanged(actor: NoticeSentence.Person, fields: [String], newName: String?,
                                    language: ParleyLanguage) -> NoticeSentence {
        if fields == ["name"], let newName {
            let quoted = language.quoted(newName)
            return language == .chinese ? "\(actor)将群名改为\(quoted)" : "\(actor) renamed the group to \(quoted)"
        }
        let english = ["name": "name", "avatar": "avatar", "description": "description", "joinMode": "join rule",
                       "showHistory": "history setting"]
        let chinese = ["name": "群名称", "avatar": "群头像", "description": "群介绍", "joinMode": "入群方式", "showHistory": "历史消息设置"]
        let known = fields.filter { english[$0] != nil }
        guard !known.isEmpty else { return language == .chinese ? "\(actor)修改了群资料" : "\(actor) changed the group's info" }
        if language == .chinese {
            let list = known.compactMap { chinese[$0] }.joined(separator: "、")
            return "\(actor)修改了\(list)\(newName.map { "，新名称为" + language.quoted($0) } ?? "")"
        }
        let names = known.compactMap { english[$0] }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        return "\(actor) changed the group's \(list)\(newName.map { " (now \(language.quoted($0)))" } ?? "")"
    }
}
