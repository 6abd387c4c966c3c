import Dispatch
import Foundation
import Glibc
import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleySQLite
import ParleySync

/// What `search-bench` does to one store: fill it through the store API, then search it as
/// `message.search` does (`MessageSearchService`: the store's index for words of three
/// characters or more, a bounded scan of the newest messages otherwise, `SearchText` for the
/// final say), timing each search.
struct SearchBench {
    /// Where a search looks.
    enum Scope: String, CaseIterable, Sendable {
        case oneConversation = "one chat"
        case everywhere = "all chats"
    }

    /// One kind of query in one scope.
    struct Timing {
        var kind: SearchCorpus.QueryKind
        var scope: Scope
        /// Sorted, in nanoseconds.
        var latencies: [UInt64]
        var hits: Int
    }

    /// The users and conversations a fill made: `reader` is in every conversation.
    struct Population: Sendable {
        var reader: UserID
        var conversations: [ConversationID]
        var senders: [UserID]
    }

    let corpus: SearchCorpus
    /// Hits per page (the server's default page), and the newest messages a search of short
    /// words looks at (`--search-scan-limit`'s default).
    var page = 20
    var scanLimit = 2000
    /// Wall seconds one kind of query in one scope may take: its searches stop there (after
    /// at least one), so a kind that costs seconds a search cannot hold the run for hours.
    var searchSeconds = 60.0

    /// The `q` quantile (0…1) of `sorted` by nearest rank; 0 for none.
    static func percentile(_ sorted: [UInt64], _ q: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }

    /// Runs `work` to its end from synchronous code (the command line runs outside any task).
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = PThreadMutex<Result<T, any Error>?>(nil)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw BenchError.failed("a store call ended without an outcome") }
        return try result.get()
    }

    /// Makes `conversations` groups, each of the reader and one sender.
    func populate(_ store: any Store, conversations: Int) throws -> Population {
        try Self.wait {
            try await store.write { writer in
                let reader = try writer.insertUser(NewUser(username: "search-reader", passwordHash: nil, phone: nil, createdAt: 0)).id
                var made = Population(reader: reader, conversations: [], senders: [])
                for index in 0..<conversations {
                    let sender = try writer.insertUser(NewUser(username: "search-sender-\(index)", passwordHash: nil, phone: nil, createdAt: 0)).id
                    let group = try writer.insertConversation(NewConversation(kind: .group, name: "search-bench-\(index)", ownerID: reader,
                                                                              createdAt: 0))
                    try writer.saveMember(StoredMember(conversationID: group.id, userID: reader, role: .owner, joinedAt: 0, readSeq: 0))
                    try writer.saveMember(StoredMember(conversationID: group.id, userID: sender, role: .member, joinedAt: 0, readSeq: 0))
                    made.conversations.append(group.id)
                    made.senders.append(sender)
                }
                return made
            }
        }
    }

    /// Appends `count` messages spread over the population's conversations, `batch` to a
    /// write (the store's own `appendMessage`, its search index kept in the same write).
    /// Returns the CPU seconds the writes took, this process's and `serverCPU`'s (a database
    /// server's processes); the texts are made outside the clock.
    func fill(_ store: any Store, _ population: Population, count: Int, batch: Int, random: inout SearchCorpus.Random,
              serverCPU: () -> Double = { 0 }, progress: (Int) -> Void = { _ in }) throws -> Double {
        var cpu = 0.0
        var done = 0
        while done < count {
            let size = min(batch, count - done)
            let messages = self.messages(population, from: done, count: size, random: &random)
            let before = Self.processCPUSeconds() + serverCPU()
            try Self.wait {
                try await store.write { writer in
                    for message in messages { _ = try writer.appendMessage(message) }
                }
            }
            cpu += Self.processCPUSeconds() + serverCPU() - before
            done += size
            progress(done)
        }
        return cpu
    }

    /// Messages `first..<first + count` of a fill: each to a conversation drawn at random,
    /// from its sender, with a text of the corpus.
    func messages(_ population: Population, from first: Int, count: Int, random: inout SearchCorpus.Random) -> [NewMessage] {
        (0..<count).map { offset in
            let slot = random.below(population.conversations.count)
            return NewMessage(conversationID: population.conversations[slot], sender: population.senders[slot],
                              clientID: "s\(first + offset)", kind: .text, text: corpus.message(&random),
                              createdAt: Int64(first + offset))
        }
    }

    /// `count` searches of each kind in each scope, timed one by one, each kind and scope
    /// within `searchSeconds`.
    func search(_ store: any Store, _ population: Population, count: Int, random: inout SearchCorpus.Random) throws -> [Timing] {
        var timings: [Timing] = []
        for kind in SearchCorpus.QueryKind.allCases {
            let queries = corpus.queries(kind, count: count, random: &random)
            for scope in Scope.allCases {
                var latencies: [UInt64] = []
                var hits = 0
                var spent: UInt64 = 0
                for query in queries where Double(spent) < searchSeconds * 1e9 {
                    let conversation = scope == .oneConversation
                        ? population.conversations[random.below(population.conversations.count)] : nil
                    let started = DispatchTime.now().uptimeNanoseconds
                    hits += try searchOnce(store, query: query, reader: population.reader, conversation: conversation)
                    latencies.append(DispatchTime.now().uptimeNanoseconds - started)
                    spent += latencies[latencies.count - 1]
                }
                timings.append(Timing(kind: kind, scope: scope, latencies: latencies.sorted(), hits: hits))
            }
        }
        return timings
    }

    /// One search as `MessageSearchService.search` makes it (the store walking
    /// `--search-walk-rows`'s default before its index); the number of hits on the page.
    func searchOnce(_ store: any Store, query: String, reader: UserID, conversation: ConversationID?) throws -> Int {
        let text = SearchText(query: query)
        let storeQuery = MessageSearchQuery(for: text, searcher: reader, conversation: conversation, page: page, scanLimit: scanLimit)
        let page = self.page
        return try Self.wait {
            let candidates = try await store.read { try $0.searchMessages(storeQuery) }
            var hits = 0
            for message in candidates where message.recalled == nil {
                guard let body = message.text, text.matches(body) else { continue }
                hits += 1
                if hits == page { break }
            }
            return hits
        }
    }

    /// Bytes of the messages table and of the search index in the SQLite file at `path`
    /// (`dbstat`: every page of each; FTS5 keeps its index in `messages_search_*` tables).
    static func sqliteSizes(path: String) throws -> (messages: Int64, index: Int64) {
        let connection = try SQLiteConnection(path: path, flags: [.readOnly])
        let rows = try connection.query("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name") { (try $0.string(0), try $0.int64(1)) }
        let messages = rows.filter { $0.0 == "messages" }.reduce(0) { $0 + $1.1 }
        let index = rows.filter { $0.0.hasPrefix("messages_search") }.reduce(0) { $0 + $1.1 }
        return (messages, index)
    }

    /// Removes the search index's upkeep from the SQLite file at `path` (the bench's own
    /// copy, never a server's): the FTS5 table gives way to a plain table of the same name,
    /// so the writer's indexing steps (schema version 25) still run but index nothing — what
    /// is left is one ordinary row insert, the floor of any index.
    static func dropSQLiteIndexUpkeep(path: String) throws {
        let connection = try SQLiteConnection(path: path, flags: [.readWrite])
        try connection.execute("""
            DROP TRIGGER IF EXISTS messages_search_update;
            DROP TRIGGER IF EXISTS messages_search_delete;
            DROP TABLE messages_search;
            CREATE TABLE messages_search (text TEXT);
            """)
    }

    /// User and system CPU of this process (every thread).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
