/// How long a stream may be silent between stanzas before its XML parser is put away
/// (`XMPPSession.armParserRelease`).
///
/// An idle stream frees its parser soon (`XMPPConfiguration.parserReleaseDelay`), which keeps
/// idle sessions small. A stream whose last stanza before the release was a chat message and
/// that sends again within `parserKeepDelay` is chatting (messages several a second): making
/// a new parser for every message would cost more than parsing it (expat's create, the primed
/// stream header and the free), so it keeps its parser until it has been silent for
/// `parserKeepDelay`. Once it has been silent that long it goes back to the short delay.
/// Signing in is never chatting: parsers kept through a burst of sign-ins would leave holes
/// between the sessions' long-lived allocations (docs/xmpp.md), so those stanzas, whatever
/// their pace, keep the short delay.
struct ParserUpkeep {
    enum State {
        /// The stream has its parser; `chatting` picks the delay it may be silent for.
        case held(chatting: Bool)
        /// The parser was put away at this time, after a chat message or another stanza.
        case released(since: ContinuousClock.Instant, afterChat: Bool)
    }

    private(set) var state = State.held(chatting: false)

    /// The parser was put away `now`; `afterChat` when the stream's last stanza was a chat message.
    mutating func released(at now: ContinuousClock.Instant, afterChat: Bool) {
        state = .released(since: now, afterChat: afterChat)
    }

    /// Bytes came `now`; the parser is made again if it was put away. A stream back within
    /// `keepDelay` of a release that followed a chat message is chatting.
    mutating func read(at now: @autoclosure () -> ContinuousClock.Instant, keepDelay: Duration) {
        guard case .released(let since, let afterChat) = state else { return }
        state = .held(chatting: afterChat && since.duration(to: now()) < keepDelay)
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
