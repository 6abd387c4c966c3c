public import Observation
public import ParleyProtocol

/// The Discover deck (seed 004): cards of people to like or pass, undo, and the match that
/// makes two people friends.
@MainActor
@Observable
public final class DiscoverViewModel {
    /// The cards still to swipe; the first is on top.
    public private(set) var cards: [UserProfile] = []
    /// A match from the last like: show both avatars and "Say hi".
    public private(set) var match: Friend?
    /// Whether a page is being fetched.
    public private(set) var isLoading = false
    /// What went wrong last.
    public private(set) var lastError: ParleyError?

    /// The card on top.
    public var top: UserProfile? { cards.first }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var exhausted = false

    /// A deck of `client`'s discover cards; call `load()` when it appears.
    public init(client: ParleyClient) {
        self.client = client
    }

    /// Fetches the first page (or the next, when few cards are left).
    public func load() async {
        guard !isLoading, !exhausted else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            let deck = try await client.discoverDeck(cursor: nextCursor)
            let known = Set(cards.map(\.id))
            cards += deck.cards.filter { !known.contains($0.id) }
            nextCursor = deck.nextCursor
            exhausted = deck.nextCursor == nil
        } catch {
            lastError = error
        }
    }

    /// Likes the top card; a match is kept in `match`.
    public func like() async {
        guard let card = top else { return }
        cards.removeFirst()
        do {
            let outcome = try await client.like(card.id)
            if outcome.matched { match = outcome.friend }
        } catch {
            cards.insert(card, at: 0)
            lastError = error
        }
        await topUp()
    }

    /// Passes the top card.
    public func pass() async {
        guard let card = top else { return }
        cards.removeFirst()
        do {
            try await client.pass(card.id)
        } catch {
            cards.insert(card, at: 0)
            lastError = error
        }
        await topUp()
    }

    /// Brings the last swiped card back on top.
    public func undo() async {
        do {
            if let card = try await client.undoSwipe() {
                cards.removeAll { $0.id == card.id }
                cards.insert(card, at: 0)
            }
        } catch {
            lastError = error
        }
    }

    /// Dismisses the match screen.
    public func dismissMatch() {
        match = nil
    }

    private func topUp() async {
        if cards.count < 3 { await load() }
    }
}
