import Testing
@testable import ParleyXMPP

@Suite struct ParserUpkeepTests {
    let release = Duration.milliseconds(20)
    let keep = Duration.milliseconds(1_000)
    let start = ContinuousClock.now

    @Test func aNewStreamFreesItsParserAfterTheShortDelay() {
        let upkeep = ParserUpkeep()
        #expect(!upkeep.isReleased)
        #expect(upkeep.delay(release: release, keep: keep) == release)
    }

    @Test func aStreamBackSoonAfterTheReleaseKeepsItsParserForTheKeepDelay() {
        var upkeep = ParserUpkeep()
        upkeep.released(at: start, afterChat: true)
        #expect(upkeep.isReleased)
        upkeep.read(at: start + .milliseconds(200), keepDelay: keep)
        #expect(!upkeep.isReleased)
        #expect(upkeep.delay(release: release, keep: keep) == keep)
    }

    @Test func aStreamBackSoonAfterAnythingButAChatMessageKeepsTheShortDelay() {
        // Signing in: its stanzas, however quick, never keep the parser longer.
        var upkeep = ParserUpkeep()
        upkeep.released(at: start, afterChat: false)
        upkeep.read(at: start + .milliseconds(30), keepDelay: keep)
        #expect(!upkeep.isReleased)
        #expect(upkeep.delay(release: release, keep: keep) == release)
    }

    @Test func aStreamSilentForTheKeepDelayGoesBackToTheShortDelay() {
        var upkeep = ParserUpkeep()
        upkeep.released(at: start, afterChat: true)
        upkeep.read(at: start + .milliseconds(200), keepDelay: keep)
        upkeep.released(at: start + .milliseconds(1_200), afterChat: true)
        upkeep.read(at: start + .milliseconds(2_200), keepDelay: keep)
        #expect(upkeep.delay(release: release, keep: keep) == release)
    }

    @Test func aZeroKeepDelayNeverKeepsTheParserLonger() {
        var upkeep = ParserUpkeep()
        upkeep.released(at: start, afterChat: true)
        upkeep.read(at: start + .milliseconds(1), keepDelay: .zero)
        #expect(upkeep.delay(release: release, keep: .zero) == release)
    }

    @Test func aKeepDelayShorterThanTheReleaseDelayIsTheReleaseDelay() {
        var upkeep = ParserUpkeep()
        upkeep.released(at: start, afterChat: true)
        upkeep.read(at: start + .milliseconds(1), keepDelay: .milliseconds(10))
        #expect(upkeep.delay(release: release, keep: .milliseconds(10)) == release)
    }

    @Test func readingWhileTheParserIsHeldChangesNothing() {
        var upkeep = ParserUpkeep()
        upkeep.read(at: start, keepDelay: keep)
        #expect(upkeep.delay(release: release, keep: keep) == release)
    }
}
