/// Message texts and search queries for `search-bench`, the same for every run with the
/// same seed: English, Chinese and mixed messages of chat-like lengths, words drawn with a
/// Zipf law (a few words everywhere, most words rare), and the queries people type.
struct SearchCorpus {
    /// Common English words, most frequent first.
    static let englishCommon = [
        "the", "you", "and", "that", "for", "are", "with", "this", "have", "not", "but", "what", "can", "was", "all",
        "your", "just", "like", "will", "when", "get", "know", "about", "there", "yes", "how", "out", "time", "good",
        "see", "now", "think", "going", "today", "tomorrow", "meeting", "thanks", "please", "lunch", "coffee", "home",
        "work", "later", "morning", "night", "weekend", "call", "send", "file", "photo", "train", "late", "sorry", "great",
        "nice", "sure", "maybe", "need", "want", "make", "back", "again", "project", "report", "team", "office", "dinner",
        "movie", "game", "music", "book", "price", "order", "ticket", "flight", "hotel", "weather", "rain", "birthday",
    ]
    /// Common Chinese characters; words are pairs of them.
    static let chineseCommon = Array(
        "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计"
            .map(String.init))

    /// The corpus's generator: the same seed makes the same corpus.
    typealias Random = SplitMix

    /// Draws ranks `0..<count` with probability ∝ 1/(rank+1).
    struct Zipf {
        private let cumulative: [Double]
        init(count: Int) {
            var sum = 0.0
            cumulative = (0..<count).map { rank in
                sum += 1 / Double(rank + 1)
                return sum
            }
        }
        func draw(_ random: inout Random) -> Int {
            let target = random.unit() * (cumulative.last ?? 0)
            var low = 0, high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Every English word: the common ones, then made-up rare ones (`zoravek`, `quilmet` …)
    /// built from syllables, so a rare word occurs in a handful of messages among millions.
    let english: [String]
    private let englishZipf: Zipf
    private let chineseZipf: Zipf

    init(rareWords: Int = 20_000) {
        let onsets = ["b", "br", "c", "d", "dr", "f", "g", "gl", "h", "k", "l", "m", "n", "p", "pl", "qu", "r", "s", "st", "t", "tr", "v", "z"]
        let nuclei = ["a", "e", "i", "o", "u", "ai", "ou", "ee"]
        let codas = ["", "n", "r", "l", "m", "st", "k", "t", "x"]
        var rare: [String] = []
        var seen = Set(Self.englishCommon)
        var random = Random(seed: 0x5EA2C4)
        while rare.count < rareWords {
            var word = ""
            for _ in 0..<(2 + random.below(2)) {
                word += onsets[random.below(onsets.count)] + nuclei[random.below(nuclei.count)]
            }
            word += codas[random.below(codas.count)]
            if seen.insert(word).inserted { rare.append(word) }
        }
        english = Self.englishCommon + rare
        englishZipf = Zipf(count: english.count)
        chineseZipf = Zipf(count: Self.chineseCommon.count)
    }

    private func englishWord(_ random: inout Random) -> String { english[englishZipf.draw(&random)] }
    private func chineseCharacter(_ random: inout Random) -> String { Self.chineseCommon[chineseZipf.draw(&random)] }

    /// How many words (English) or characters (Chinese) a message has: mostly short, a few
    /// long, as in chats (a geometric tail over a floor).
    private func length(_ random: inout Random, floor: Int, mean: Double, cap: Int) -> Int {
        var count = floor
        while count < cap && random.unit() > 1 / mean { count += 1 }
        return count
    }

    /// One message text: half English, three in ten Chinese, the rest mixed.
    func message(_ random: inout Random) -> String {
        let pick = random.below(10)
        if pick < 5 {
            return (0..<length(&random, floor: 2, mean: 9, cap: 60)).map { _ in englishWord(&random) }.joined(separator: " ")
        }
        if pick < 8 {
            return (0..<length(&random, floor: 3, mean: 14, cap: 120)).map { _ in chineseCharacter(&random) }.joined()
        }
        let english = (0..<length(&random, floor: 1, mean: 4, cap: 20)).map { _ in englishWord(&random) }.joined(separator: " ")
        let chinese = (0..<length(&random, floor: 2, mean: 8, cap: 60)).map { _ in chineseCharacter(&random) }.joined()
        return random.below(2) == 0 ? english + " " + chinese : chinese + " " + english
    }

    /// The kinds of query measured, each alone in one conversation and across all.
    enum QueryKind: String, CaseIterable, Sendable {
        /// One of the twenty most common English words (three letters or more: indexed).
        case commonWord = "common word"
        /// A word of the rare tail (occurs in few messages).
        case rareWord = "rare word"
        /// Two Chinese characters: shorter than a trigram, so the newest messages are scanned.
        case chinese2 = "CJK 2 chars"
        /// Three Chinese characters as they occur in messages (indexed).
        case chinese3 = "CJK 3 chars"
        /// An English word and two Chinese characters together.
        case mixed = "mixed"
    }

    /// `count` queries of `kind`.
    func queries(_ kind: QueryKind, count: Int, random: inout Random) -> [String] {
        (0..<count).map { _ in
            switch kind {
            case .commonWord:
                return Self.englishCommon[random.below(20)]
            case .rareWord:
                // Ranks far down the tail: a few hits in a million messages.
                return english[Self.englishCommon.count + 1000 + random.below(english.count - Self.englishCommon.count - 1000)]
            case .chinese2:
                return chineseCharacter(&random) + chineseCharacter(&random)
            case .chinese3:
                return chineseRun(3, &random)
            case .mixed:
                return englishWord(&random) + " " + chineseCharacter(&random) + chineseCharacter(&random)
            }
        }
    }

    /// `count` Chinese characters drawn as messages draw them, so common runs are common.
    private func chineseRun(_ count: Int, _ random: inout Random) -> String {
        (0..<count).map { _ in chineseCharacter(&random) }.joined()
    }
}
