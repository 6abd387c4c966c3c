import Foundation
import ParleyKit
import ParleyProtocol

// Frames: the main screen with one or two panes (the login form: ChatApp+LoginRender.swift).
extension ChatApp {
    /// Two panes from this width on; one below it.
    static let twoPaneWidth = 70

    func draw() {
        let size = terminal.size
        var frame: (lines: [Line], cursor: (row: Int, column: Int)?)
        switch mode {
        case .login: frame = loginFrame(columns: size.columns, rows: size.rows)
        case .main: frame = mainFrame(columns: size.columns, rows: size.rows)
        }
        while frame.lines.count < size.rows { frame.lines.append(Line()) }
        let fitted = frame.lines.prefix(size.rows).enumerated().map { row, line in
            // Never write the last column of the last row: the terminal would scroll.
            line.fitted(to: row == size.rows - 1 ? size.columns - 1 : size.columns)
        }
        screen.draw(fitted, size: size, cursor: frame.cursor)
    }

    // MARK: Main

    private func mainFrame(columns: Int, rows: Int) -> (lines: [Line], cursor: (row: Int, column: Int)?) {
        let connection = sessions.connection
        if connection != stateSeen.state { stateSeen = (connection, Date()) }
        var lines: [Line] = [header(columns: columns, connection: connection)]
        if let banner = bannerText(connection) {
            var style = Style.bold.colored(.red).reversed
            if case .connecting = connection { style = Style.bold.colored(.yellow).reversed }
            lines.append(Line.centered(Line(banner), width: columns).fitted(to: columns, padStyle: style).restyled(style))
        }
        let bodyHeight = max(1, rows - lines.count - 2)
        let twoPanes = columns >= Self.twoPaneWidth
        if twoPanes {
            let left = min(36, max(24, columns * 3 / 10))
            let right = columns - left - 1
            let list = listPane(width: left, height: bodyHeight)
            let talk = focus == .discover ? discoverPane(width: right, height: bodyHeight)
                : focus == .devices ? devicesPane(width: right, height: bodyHeight)
                : focus == .search ? searchPane(width: right, height: bodyHeight)
                : dialogue == nil ? emptyDialogue(width: right, height: bodyHeight) : dialoguePane(width: right, height: bodyHeight)
            for row in 0..<bodyHeight {
                lines.append(list[row] + Line("│", .dim) + talk[row])
            }
        } else if focus == .discover {
            lines += discoverPane(width: columns, height: bodyHeight)
        } else if focus == .devices {
            lines += devicesPane(width: columns, height: bodyHeight)
        } else if focus == .search {
            lines += searchPane(width: columns, height: bodyHeight)
        } else if focus == .dialogue && dialogue != nil {
            lines += dialoguePane(width: columns, height: bodyHeight)
        } else {
            lines += listPane(width: columns, height: bodyHeight)
        }
        let (inputLine, cursorColumn) = inputRow(columns: columns)
        let cursor = cursorColumn.map { (row: lines.count, column: $0) }
        lines.append(inputLine)
        lines.append(helpLine(columns: columns))
        return (lines, cursor)
    }

    private func header(columns: Int, connection: ConnectionState) -> Line {
        var left = Line(" Parley", Style.bold.reversed)
        if let accountName { left.append(" · " + accountName, .reverse) }
        let state: Line
        switch connection {
        case .online: state = Line(language.pick("● online ", "● 在线 "), Style.reverse.colored(.green))
        case .connecting: state = Line(language.pick("◌ connecting… ", "◌ 连接中… "), Style.reverse.colored(.yellow))
        case .offline: state = Line(language.pick("✕ offline ", "✕ 离线 "), Style.reverse.colored(.red))
        }
        return Line.spread(left, state, width: columns, padStyle: .reverse)
    }

    /// UI.md's banner, with a live countdown to the next attempt.
    private func bannerText(_ connection: ConnectionState) -> String? {
        if case .offline(let reason, let retryIn?) = connection {
            let total = Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) / 1e18
            let left = max(0, total - Date().timeIntervalSince(stateSeen.at))
            let sentence = language.pick("No connection — retrying in \(Int(left.rounded(.up))) s · Ctrl-R now",
                                         "网络连接已断开 — \(Int(left.rounded(.up))) 秒后重试 · Ctrl-R 立即重试")
            return reason == .serverShuttingDown ? language.pick("Server restarting — ", "服务器正在重启 — ") + sentence : sentence
        }
        return connection.bannerText(language: language)
    }

    private func inputRow(columns: Int) -> (Line, Int?) {
        if let prompt {
            let title = prompt.title + " "
            let (text, column) = prompt.editor.visible(in: max(4, columns - DisplayWidth.width(of: title) - 1))
            return (Line(title, .bold) + Line(text), DisplayWidth.width(of: title) + column)
        }
        let flashLine = flash.map { Line($0.text, $0.isError ? Style.bold.colored(.red) : Style().colored(.green)) } ?? Line()
        guard focus == .dialogue, let dialogue else { return (flashLine, nil) }
        let prefix = "› "
        let room = max(4, columns - 2 - (flash == nil ? 0 : min(columns / 3, flashLine.width + 1)))
        let (text, column) = input.visible(in: room)
        let typed = input.isEmpty ? Line(dialogue.placeholder, .dim) : Line(text)
        return (Line.spread(Line(prefix, .bold) + typed, flashLine, width: columns), DisplayWidth.width(of: prefix) + column)
    }

    private func helpLine(columns: Int) -> Line {
        // The longest wording that fits: every key must stay visible in 80 columns.
        let variants: [String]
        if prompt != nil {
            variants = [" Enter confirm · Esc cancel"]
        } else if focus == .discover {
            variants = [" ← pass · → like · u undo · Esc list · Ctrl-C quit"]
        } else if focus == .devices {
            variants = [language.pick(" o sign out all other devices · Esc list · Ctrl-C quit", " o 退出所有其他设备 · Esc 返回 · Ctrl-C 退出")]
        } else if focus == .search {
            variants = [language.pick(" ↑↓ select · Enter open the chat · m more · / new search · Esc back · Ctrl-C quit",
                                      " ↑↓ 选择 · Enter 打开聊天 · m 更多 · / 重新搜索 · Esc 返回 · Ctrl-C 退出"),
                        language.pick(" ↑↓ Enter open · m more · / new search · Esc back · ^C quit",
                                      " ↑↓ Enter 打开 · m 更多 · / 搜索 · Esc 返回 · ^C 退出")]
        } else if focus == .dialogue && dialogue != nil {
            variants = [language.pick(" Enter send · /image PATH · /send-file PATH · /actions (reply, react, edit…) · /search WORDS · Esc list · ↑↓ PgUp PgDn scroll · End newest · Ctrl-R reconnect · Ctrl-C quit",
                                      " Enter 发送 · /image 路径 · /send-file 路径 · /actions（回复、表情、编辑…）· /search 关键词 · Esc 列表 · ↑↓ PgUp PgDn 滚动 · End 最新 · Ctrl-R 重连 · Ctrl-C 退出"),
                        language.pick(" Enter send · /send-file PATH · /actions · Esc list · ↑↓/PgUp/PgDn scroll · End newest · Ctrl-C quit",
                                      " Enter 发送 · /send-file 路径 · /actions · Esc 列表 · ↑↓/PgUp/PgDn 滚动 · End 最新 · Ctrl-C 退出"),
                        language.pick(" Enter send · /image PATH · Esc list · ↑↓/PgUp/PgDn scroll · End newest · Ctrl-C quit",
                                      " Enter 发送 · /image 路径 · Esc 列表 · ↑↓/PgUp/PgDn 滚动 · End 最新 · Ctrl-C 退出"),
                        language.pick(" Enter send · /image PATH · Esc back · PgUp/PgDn · End · ^C quit",
                                      " Enter 发送 · /image 路径 · Esc 返回 · PgUp/PgDn · End · ^C 退出")]
        } else if tab == .contacts {
            variants = [language.pick(" ↑↓ select · Enter open/accept · y/n request · Tab chats · a add friend · g/G group · r/R room · L logout · q quit",
                                      " ↑↓ 选择 · Enter 打开/接受 · y/n 好友请求 · Tab 会话 · a 加好友 · g/G 群聊 · r/R 聊天室 · L 退出登录 · q 退出"),
                        language.pick(" ↑↓ Enter open · y/n request · Tab chats · a friend · g/G group · r/R room · L logout · q quit",
                                      " ↑↓ Enter 打开 · y/n 请求 · Tab 会话 · a 好友 · g/G 群聊 · r/R 聊天室 · L 登出 · q 退出"),
                        language.pick(" ↑↓ Enter · y/n · Tab · a friend · g/G group · r/R room · q quit",
                                      " ↑↓ Enter · y/n · Tab · a 好友 · g/G 群聊 · r/R 聊天室 · q 退出")]
        } else {
            variants = [language.pick(" ↑↓ select · Enter open · Tab contacts · / search · a add friend · g/G join/new group · r/R enter/new room · d discover · p profile · v devices · L logout · q quit",
                                      " ↑↓ 选择 · Enter 打开 · Tab 通讯录 · / 搜索 · a 加好友 · g/G 加入/新建群聊 · r/R 进入/新建聊天室 · d 发现 · p 资料 · v 设备 · L 退出登录 · q 退出"),
                        language.pick(" ↑↓ select · Enter open · Tab contacts · / search · a add friend · g/G join/new group · r/R enter/new room · d discover · p profile · L logout · q quit",
                                      " ↑↓ 选择 · Enter 打开 · Tab 通讯录 · / 搜索 · a 加好友 · g/G 加入/新建群聊 · r/R 进入/新建聊天室 · d 发现 · p 资料 · L 退出登录 · q 退出"),
                        language.pick(" ↑↓ Enter open · Tab contacts · / search · a friend · g/G join/new group · r/R enter/new room · d discover · p profile · L logout · q quit",
                                      " ↑↓ Enter 打开 · Tab 通讯录 · / 搜索 · a 好友 · g/G 群聊 · r/R 聊天室 · d 发现 · p 资料 · L 登出 · q 退出"),
                        language.pick(" ↑↓ Enter · Tab contacts · / search · a friend · g/G group · r/R room · d discover · p profile · L logout · q quit",
                                      " ↑↓ Enter · Tab 通讯录 · / 搜索 · a 好友 · g/G 群 · r/R 聊天室 · d 发现 · p 资料 · L 登出 · q 退出"),
                        language.pick(" ↑↓ Enter · Tab · / search · a friend · g/G group · r/R room · d discover · p profile · q quit",
                                      " ↑↓ Enter · Tab · / 搜索 · a 好友 · g/G 群 · r/R 聊天室 · d 发现 · p 资料 · q 退出"),
                        language.pick(" ↑↓ Enter · Tab · / search · a friend · g/G · r/R · d discover · p me · q quit",
                                      " ↑↓ Enter · Tab · / 搜索 · a 好友 · g/G · r/R · d 发现 · p 我 · q 退出")]
        }
        // The last row: one column short, so that the terminal never scrolls.
        let text = variants.first { DisplayWidth.width(of: $0) < columns } ?? variants[variants.count - 1]
        return Line(text, .reverse).fitted(to: columns - 1, padStyle: .reverse)
    }

    // MARK: The list pane

    private func listPane(width: Int, height: Int) -> [Line] {
        var tabs = Line()
        let unread = sessions.totalUnread
        let chatsTitle = language.pick(" Chats", " 会话") + (unread > 0 ? " (\(unread))" : "") + " "
        let requests = contacts.incomingRequests.count
        let contactsTitle = language.pick(" Contacts", " 通讯录") + (requests > 0 ? " (\(requests))" : "") + " "
        tabs.append(chatsTitle, tab == .chats ? Style.bold.reversed : (unread > 0 ? .bold : .dim))
        tabs.append(" ")
        tabs.append(contactsTitle, tab == .contacts ? Style.bold.reversed : (requests > 0 ? .bold : .dim))
        var lines = [tabs.fitted(to: width)]
        let entries = listEntries
        selection = min(selection, max(0, entries.count - 1))
        let rows = tab == .chats ? chatRows(width: width) : contactRows(width: width)
        if rows.isEmpty {
            let empty = tab == .chats ? sessions.emptyText
                : language.pick("No contacts yet — press a to add a friend, g to join a group", "还没有联系人 — 按 a 添加好友，按 g 加入群聊")
            lines += DisplayWidth.wrap(empty, to: max(1, width - 2)).map { Line(" " + $0, .dim).fitted(to: width) }
        } else {
            // Keep the selected entry in sight.
            let available = height - 1
            let selectedRange = rows.indices.filter { rows[$0].entry == selection }
            if let first = selectedRange.first, let last = selectedRange.last {
                if first < listScroll { listScroll = first }
                if last >= listScroll + available { listScroll = last - available + 1 }
            }
            listScroll = max(0, min(listScroll, max(0, rows.count - available)))
            lines += rows.dropFirst(listScroll).prefix(available).map(\.line)
        }
        while lines.count < height { lines.append(Line().fitted(to: width)) }
        return Array(lines.prefix(height))
    }

    /// Two lines per conversation: title and time, then preview and unread count.
    private func chatRows(width: Int) -> [(line: Line, entry: Int?)] {
        var rows: [(Line, Int?)] = []
        for (index, row) in sessions.rows.enumerated() {
            let selected = index == selection
            let highlight = selected && focus == .list
            let base: Style = highlight ? .reverse : .plain
            let marker = selected ? "▌" : " "
            var title = Line(marker, base)
            if row.kind == .user { title.append(row.isOnline ? "● " : "○ ", row.isOnline ? base.colored(.green) : Style(dim: true, reverse: highlight)) }
            if row.kind == .group { title.append("# ", base) }
            if row.kind == .room { title.append("@ ", base) }
            var titleStyle = base
            titleStyle.bold = row.unread > 0 || selected
            title.append(row.title, titleStyle)
            // Muted: a bell struck through, as the web client shows it.
            if row.isMuted { title.append(" 🔕", Style(dim: !highlight, reverse: highlight)) }
            var time = Line(row.timeLabel, Style(dim: !highlight, reverse: highlight))
            time.append(" ", base)
            rows.append((Line.spread(title, time, width: width, padStyle: base), index))
            var preview = Line("   ", base)
            preview.append(row.preview, Style(dim: !highlight, reverse: highlight))
            var badge = Line()
            if row.mentions > 0 {
                badge.append(" @ ", Style(bold: true, reverse: !highlight).colored(.yellow))
            }
            if !row.badge.isEmpty {
                badge.append(" \(row.badge) ", Style(bold: true, reverse: !highlight).colored(.red))
                badge.append(" ", base)
            }
            rows.append((Line.spread(preview, badge, width: width, padStyle: base), index))
        }
        return rows
    }

    /// Requests, friends, groups and rooms under section titles.
    private func contactRows(width: Int) -> [(line: Line, entry: Int?)] {
        var rows: [(Line, Int?)] = []
        var index = 0
        func item(_ line: Line, hint: Line = Line()) {
            let selected = index == selection
            let highlight = selected && focus == .list
            let base: Style = highlight ? .reverse : .plain
            let row = Line(selected ? "▌" : " ", base) + line.restyledKeepingColor(reverse: highlight)
            rows.append((Line.spread(row, hint.restyledKeepingColor(reverse: highlight), width: width, padStyle: base), index))
            index += 1
        }
        func section(_ title: String, count: Int) {
            rows.append((Line(" \(title) (\(count))", Style.bold.colored(.cyan)).fitted(to: width), nil))
        }
        if !contacts.incomingRequests.isEmpty {
            section(language.pick("Friend requests", "好友请求"), count: contacts.incomingRequests.count)
            for request in contacts.incomingRequests {
                var line = Line("+ ", .bold)
                line.append(request.from.displayName, .bold)
                if let greeting = request.greeting, !greeting.isEmpty { line.append(": " + greeting, .dim) }
                item(line, hint: Line("y/n ", .dim))
            }
        }
        section(language.pick("Friends", "好友"), count: contacts.friends.count)
        for friend in contacts.friends {
            var line = Line(friend.isOnline ? "● " : "○ ", friend.isOnline ? Style().colored(.green) : .dim)
            line.append(friend.name)
            if let info = friend.info, !info.isEmpty { line.append("  " + info, .dim) }
            item(line)
        }
        section(language.pick("Groups", "群聊"), count: contacts.groups.count)
        for group in contacts.groups { item(Line("# ") + Line(group.name)) }
        section(language.pick("Rooms", "聊天室"), count: contacts.rooms.count)
        for room in contacts.rooms { item(Line("@ ") + Line(room.name)) }
        return rows
    }

    // MARK: The dialogue pane

    private func emptyDialogue(width: Int, height: Int) -> [Line] {
        var lines = Array(repeating: Line().fitted(to: width), count: height)
        if height > 2 {
            lines[height / 2] = Line.centered(Line(language.pick("Select a chat and press Enter", "选择一个会话，按回车打开"), .dim), width: width)
        }
        return lines
    }

    private func dialoguePane(width: Int, height: Int) -> [Line] {
        guard let dialogue else { return emptyDialogue(width: width, height: height) }
        var title = Line(" " + (dialogue.title.isEmpty ? "…" : dialogue.title), .bold)
        if let kind = dialogue.kind, kind != .user { title.append("  " + (kind == .group ? language.pick("group", "群聊") : language.pick("room", "聊天室")), .dim) }
        if let typing = dialogue.typingLine { title.append("  " + typing, Style().colored(.yellow)) }
        var lines = [Line.spread(title, Line(focus == .dialogue ? "" : language.pick("Esc/Enter to type ", "Esc/Enter 输入 "), .dim), width: width).restyled(Style(bold: true, underline: true))]
        let indicator = dialogue.showsNewMessageIndicator && scrollOffset > 0
        let area = max(1, height - 1 - (indicator ? 1 : 0))
        dialogueHeight = area
        var body: [Line] = []
        if dialogue.hasMoreHistory {
            body.append(Line.centered(Line(dialogue.isLoadingHistory ? "Loading…" : "↑ PgUp for older messages", .dim), width: width))
        }
        body += messageLines(dialogue, width: width)
        let maximum = max(0, body.count - area)
        if scrollOffset > maximum { scrollOffset = maximum }
        let start = max(0, body.count - area - scrollOffset)
        if start == 0 && dialogue.hasMoreHistory && !dialogue.isLoadingHistory && !loadingOlder && scrollOffset > 0 {
            loadingOlder = true
            Task {
                await dialogue.loadOlder()
                loadingOlder = false
                post.yield(.changed)
            }
        }
        let visible = Array(body[start..<min(body.count, start + area)])
        lines += Array(repeating: Line().fitted(to: width), count: area - visible.count) + visible
        if indicator {
            let count = dialogue.newMessageCount
            let text = language.pick(" ↓ \(count) new message\(count == 1 ? "" : "s") — End to jump ", " ↓ \(count) 条新消息 — 按 End 查看 ")
            lines.append(Line.centered(Line(text, Style.bold.colored(.yellow).reversed), width: width))
        }
        return lines.map { $0.fitted(to: width) }
    }

    /// Every line of the dialogue, oldest first: day headers, notices dim and centred, others'
    /// bubbles on the left, the reader's on the right, then pending sends.
    private func messageLines(_ dialogue: DialogueViewModel, width: Int) -> [Line] {
        let bubbleWidth = max(8, width * 4 / 5 - 2)
        var lines: [Line] = []
        for section in dialogue.sections {
            lines.append(Line.centered(Line("── \(section.title) ──", .dim), width: width))
            for item in section.items {
                switch item {
                case .notice(let notice):
                    for part in DisplayWidth.wrap(notice.text, to: max(4, width - 6)) {
                        lines.append(Line.centered(Line(part, .dim), width: width))
                    }
                case .message(let bubble):
                    let text = DisplayWidth.wrap(bubble.text, to: bubbleWidth)
                    // "#seq" names the message in the action commands (/reply, /react, …).
                    let number = "#\(bubble.seq)"
                    let edited = bubble.isEdited ? language.pick(" (edited)", "（已编辑）") : ""
                    let forwarded = bubble.isForwarded ? language.pick("[forwarded] ", "[转发] ") : ""
                    let quote = bubble.reply.map { "↪ " + $0.text }
                    let reactions = bubble.reactions.map { "\($0.emoji) \($0.users.count)" }.joined(separator: "  ")
                    let mark = bubble.mentionsMe ? Style.bold.colored(.yellow) : Style()
                    if bubble.isSelf {
                        var head = Line(number + "  " + bubble.timeLabel + edited + "  ", .dim)
                        // Ticks: ✓ sent, ✓✓ delivered, ✓✓ in colour read (1:1 only).
                        switch dialogue.deliveryState(of: bubble) {
                        case .sent: head.append("✓ ", .dim)
                        case .delivered: head.append("✓✓ ", .dim)
                        case .read: head.append("✓✓ ", Style.bold.colored(.cyan))
                        case nil: break
                        }
                        head.append(bubble.senderName + " ", Style.bold.colored(.green))
                        lines.append(Line.right(head, width: width))
                        if let quote {
                            for part in DisplayWidth.wrap(quote, to: bubbleWidth).prefix(2) { lines.append(Line.right(Line(part + " ", .dim), width: width)) }
                        }
                        for part in Self.flushLeft(DisplayWidth.wrap(forwarded + bubble.text, to: bubbleWidth)) {
                            lines.append(Line.right(Line(part + " ", Style().colored(.green)), width: width))
                        }
                        if !reactions.isEmpty { lines.append(Line.right(Line(reactions + " ", .dim), width: width)) }
                        if bubble.voice != nil, bubble.listenedCount > 0 {
                            let heard = language.pick("listened", "已听") + (bubble.listenedCount > 1 ? " \(bubble.listenedCount)" : "")
                            lines.append(Line.right(Line(heard + " ", Style().colored(.cyan)), width: width))
                        }
                    } else {
                        var head = Line(" " + bubble.senderName, Style.bold.colored(.cyan))
                        head.append("  " + bubble.timeLabel + edited + "  " + number, .dim)
                        lines.append(head)
                        if let quote {
                            for part in DisplayWidth.wrap(quote, to: bubbleWidth).prefix(2) { lines.append(Line("   " + part, .dim)) }
                        }
                        for part in forwarded.isEmpty ? text : DisplayWidth.wrap(forwarded + bubble.text, to: bubbleWidth) {
                            // A voice note not played yet carries a dot, as in the web client.
                            lines.append(Line((bubble.isListened ? "   " : " • ") + part, mark))
                        }
                        if !reactions.isEmpty { lines.append(Line("   " + reactions, .dim)) }
                    }
                }
            }
        }
        for pending in dialogue.pending {
            for part in Self.flushLeft(DisplayWidth.wrap(pending.text, to: bubbleWidth)) {
                lines.append(Line.right(Line(part + " ", .dim), width: width))
            }
            if let failure = pending.failure {
                lines.append(Line.right(Line("✗ not sent: \(failure) ", Style().colored(.red)), width: width))
            } else {
                lines.append(Line.right(Line(language.pick("⏳ sending… ", "⏳ 发送中… "), .dim), width: width))
            }
        }
        return lines
    }
}

extension ChatApp {
    /// The wrapped lines of a right-hand (own) message padded to the widest of them, so that
    /// once right-aligned they share one left edge instead of a ragged one.
    static func flushLeft(_ parts: [String]) -> [String] {
        let widest = parts.map { DisplayWidth.width(of: $0) }.max() ?? 0
        return parts.map { DisplayWidth.fit($0, to: widest) }
    }
}

extension Line {
    /// Every span in `style` (a banner, a header).
    func restyled(_ style: Style) -> Line {
        var line = self
        for index in line.spans.indices { line.spans[index].style = style }
        return line
    }

    /// Every span reversed (or not), keeping its colour and weight: a selected row.
    func restyledKeepingColor(reverse: Bool) -> Line {
        var line = self
        for index in line.spans.indices {
            line.spans[index].style.reverse = reverse
            if reverse { line.spans[index].style.dim = false }
        }
        return line
    }
}
