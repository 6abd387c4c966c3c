/// How long a stream may be silent between stanzas before its XML parser is put away
/// (`XMPPSession.armParserRelease`).
///
/// An idle stream frees its parser soon (`XMPPConfiguration.parserReleaseDelay`), which keeps
/// idle sessions small. A stream that then sends again within `parserKeepDelay` is chatting
/// (several stanzas a second, as a busy client does): making a new parser for every stanza of
/// it would cost more than parsing the stanza (expat's create, the primed stream header and
/// the free), so it keeps its parser until it has been silent for `parserKeepDelay`. Once it
/// has been silent that long it is idle again and goes back to the short delay.
struct ParserUpkeep {
    enum State {
        /// The stream has its parser; `chatting` picks the delay it may be silent for.
        case held(chatting: Bool)
        /// The parser was put away at this time.
        case released(since: ContinuousClock.Instant)
    }

    private(set) var state = State.held(chatting: false)

    /// The parser was put away `now`.
    mutating func released(at now: ContinuousClock.Instant) {
        state = .released(since: now)
    }

    /// Bytes came `now`; the parser is made again if it was put away. A stream back within
    /// `keepDelay` of the release is chatting.
    mutating func read(at now: @autoclosure () -> ContinuousClock.Instant, keepDelay: Duration) {
        guard case .released(let since) = state else { return }
        state = .held(chatting: since.duration(to: now()) < keepDelay)
    }

    /// Whether the stream's parser is put away.
    var isReleased: Bool {
        if case .released = state { return true }
        return false
    }

    /// How long the stream may be silent before its parser is put away: the short delay, or
    /// for a chatting stream the keep delay (never shorter than the short one).
    func delay(release: Duration, keep: Duration) -> Duration {
        guard case .held(chatting: true) = state else { return release }
        return max(release, keep)
    }
}
