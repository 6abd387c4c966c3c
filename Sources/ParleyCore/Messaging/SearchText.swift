public import ParleyProtocol

/// How search compares a query with message text, in one place for every store: each word
/// of the query must occur in the text, case-insensitively, as a run of whole characters
/// (so "中文" is found inside "我会说中文", and "e" never matches half of "é").
public struct SearchText: Sendable {
    /// The query's words, each as lowercased characters; empty for a blank query.
    public let terms: [[String]]

    /// Splits `query` at white space; repeated words count once.
    public init(query: String) {
        var seen = Set<[String]>()
        terms = query.split(whereSeparator: \.isWhitespace).compactMap { word in
            let folded = Self.folded(word)
            return seen.insert(folded).inserted ? folded : nil
        }
    }

    /// The given words, each compared as a whole (a store's `MessageSearchQuery.terms`).
    public init(words: [String]) {
        var seen = Set<[String]>()
        terms = words.compactMap { word in
            let folded = Self.folded(word)
            return !folded.isEmpty && seen.insert(folded).inserted ? folded : nil
        }
    }

    /// The words long enough for a trigram index, as strings (see `MessageSearchQuery`).
    public var indexedTerms: [String] {
        terms.map { $0.joined() }.filter { $0.unicodeScalars.count >= MessageSearchQuery.minimumIndexedTerm }
    }

    /// The words too short for the index that a store can still require by their code points
    /// (`MessageSearchQuery.literals`): those made only of unified Han ideographs, which have no
    /// case and no canonical decomposition, so a text holds one of them as a whole character
    /// exactly when it holds its code points (the compatibility ideographs, which decompose into
    /// unified ones, are left out). "中文" is such a word; "ok", "é" and Hangul are not.
    public var literalTerms: [String] {
        terms.map { $0.joined() }.filter { word in
            word.unicodeScalars.count < MessageSearchQuery.minimumIndexedTerm && word.unicodeScalars.allSatisfy(Self.isUnifiedHan)
        }
    }

    private static func isUnifiedHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x2EBEF, 0x30000...0x3134F: true
        default: false
        }
    }

    /// Whether every word occurs in `text`.
    public func matches(_ text: String) -> Bool {
        let characters = Self.folded(text)
        return terms.allSatisfy { Self.firstOffset(of: $0, in: characters, from: 0) != nil }
    }

    /// An excerpt of about `length` characters around the first match, the matched words
    /// marked; "…" where the text was cut.
    public func snippet(of text: String, length: Int) -> [SnippetPart] {
        let original = Array(text)
        let folded = original.map { String($0).lowercased() }
        let first = terms.compactMap { Self.firstOffset(of: $0, in: folded, from: 0) }.min() ?? 0
        // Some context before the match, the rest after it.
        let lead = min(first, max(length / 4, 0))
        let start = first - lead
        let end = min(original.count, start + max(length, 1))
        var parts: [SnippetPart] = []
        var plain = start > 0 ? "…" : ""
        var index = start
        while index < end {
            if let term = terms.filter({ Self.matches($0, in: folded, at: index) }).max(by: { $0.count < $1.count }) {
                if !plain.isEmpty { parts.append(SnippetPart(plain, match: false)) }
                plain = ""
                let stop = min(index + term.count, original.count)
                parts.append(SnippetPart(String(original[index..<stop]), match: true))
                index = stop
            } else {
                plain.append(original[index].isNewline ? " " : original[index])
                index += 1
            }
        }
        if index < original.count { plain += "…" }
        if !plain.isEmpty { parts.append(SnippetPart(plain, match: false)) }
        return parts
    }

    private static func folded<S: StringProtocol>(_ text: S) -> [String] {
        text.map { String($0).lowercased() }
    }

    private static func matches(_ term: [String], in text: [String], at offset: Int) -> Bool {
        guard !term.isEmpty, offset + term.count <= text.count else { return false }
        for (index, character) in term.enumerated() where text[offset + index] != character { return false }
        return true
    }

    private static func firstOffset(of term: [String], in text: [String], from start: Int) -> Int? {
        guard term.count <= text.count else { return nil }
        return (start...(text.count - term.count)).first { matches(term, in: text, at: $0) }
    }
}
