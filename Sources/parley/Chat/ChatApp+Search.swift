import Foundation
import ParleyKit
import ParleyProtocol

// Message search ("/" on the list, or "/search WORDS" in a dialogue for that chat only): the
// hits newest first, with the matched words underlined; Enter opens a hit's conversation,
// "m" loads the next page.
extension ChatApp {
    /// Hits asked for per page (the server caps it at its `--max-search-page`).
    static let searchPage = 20

    func askSearch() {
        prompt = Prompt(title: language.pick("Search messages:", "搜索聊天记录：")) { [weak self] words in
            guard let self, !words.isEmpty else { return nil }
            search = ChatSearch(query: words)
            focus = .search
            loadSearchPage()
            return nil
        }
    }

    /// `/search WORDS` typed in a dialogue: searches that conversation only. False when the
    /// line is not that command.
    func searchCommand(_ command: String, in dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", maxSplits: 1)
        guard parts.first == "/search" else { return false }
        let words = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        guard !words.isEmpty else {
            showFlash(language.pick("Usage: /search WORDS", "用法：/search 关键词"), isError: true)
            return true
        }
        search = ChatSearch(query: words, conversation: dialogue.conversationId)
        focus = .search
        loadSearchPage()
        return true
    }

    func loadSearchPage() {
        guard let current = search else { return }
        search?.loading = true
        Task {
            do throws(ParleyError) {
                let page = try await client.searchMessages(current.query, in: current.conversation, before: current.nextBefore, limit: Self.searchPage)
                guard search?.query == current.query, search?.conversation == current.conversation else { return }
                search?.hits += page.hits
                search?.nextBefore = page.nextBefore
                for sender in Set(page.hits.compactMap(\.message.sender)) where search?.names[sender] == nil {
                    if let profile = await client.profile(of: sender) { search?.names[sender] = profile.displayName }
                }
            } catch {
                showFlash(describe(error), isError: true)
            }
            search?.loading = false
            post.yield(.changed)
        }
    }

    func handleSearch(_ key: Key) {
        guard let current = search else {
            focus = .list
            return
        }
        switch key {
        case .escape, .character("q"):
            focus = current.conversation != nil && dialogue != nil ? .dialogue : .list
        case .up, .character("k"):
            search?.selection = max(0, current.selection - 1)
        case .down, .character("j"):
            search?.selection = min(max(0, current.hits.count - 1), current.selection + 1)
        case .character("m"):
            if current.nextBefore != nil, !current.loading { loadSearchPage() }
        case .character("/"):
            askSearch()
        case .enter, .right:
            guard current.selection < current.hits.count else { return }
            open(current.hits[current.selection].message.conversationId)
        default:
            break
        }
    }

    func searchPane(width: Int, height: Int) -> [Line] {
        guard let current = search else { return Array(repeating: Line().fitted(to: width), count: height) }
        let scope = current.conversation.flatMap { id in sessions.rows.first { $0.id == id }?.title }
        let heading = language.pick(" Search: ", " 搜索：") + current.query + (scope.map { language.pick(" in \($0)", "（\($0)）") } ?? "")
        let count = current.loading ? language.pick("Searching…", "正在搜索…")
            : language.pick("\(current.hits.count) found ", "找到 \(current.hits.count) 条 ")
        var lines = [Line.spread(Line(heading, .bold), Line(count, .dim), width: width).restyled(Style(bold: true, underline: true))]
        if !current.loading && current.hits.isEmpty {
            lines.append(Line(" " + language.pick("No messages found", "没有找到相关消息"), .dim))
        }
        let times = MessageTimeFormatter()
        // Two lines a hit; the list scrolls so the selected one stays in view.
        let perScreen = max(1, (height - 2) / 2)
        let first = max(0, current.selection - perScreen + 1)
        for (index, hit) in current.hits.enumerated().dropFirst(first).prefix(perScreen) {
            let selected = index == current.selection
            let base: Style = selected ? .reverse : .plain
            let chat = sessions.rows.first { $0.id == hit.message.conversationId }?.title ?? "?"
            let sender = hit.message.sender.map { current.names[$0] ?? "ID: \($0)" } ?? ""
            var title = Line(selected ? "▌" : " ", base)
            title.append(chat, Style(bold: true, reverse: selected))
            title.append("  " + sender, Style(dim: !selected, reverse: selected))
            lines.append(Line.spread(title, Line(times.label(for: hit.message.createdAt) + " ", Style(dim: !selected, reverse: selected)),
                                     width: width, padStyle: base))
            var snippet = Line("   ")
            for part in hit.snippet {
                // One line: a newline in the message would break the layout.
                let text = part.text.replacingOccurrences(of: "\n", with: " ")
                snippet.append(text, part.match ? Style(bold: true, underline: true).colored(.yellow) : .plain)
            }
            lines.append(snippet.fitted(to: width))
        }
        if current.nextBefore != nil && !current.loading {
            lines.append(Line(" " + language.pick("m: load more", "m：加载更多"), .dim))
        }
        while lines.count < height { lines.append(Line()) }
        return Array(lines.prefix(height)).map { $0.fitted(to: width) }
    }
}
