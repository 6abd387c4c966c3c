import Testing
@testable import ParleyXMPP

@Suite struct ArchiveTimeTests {
    @Test func xmppTimesAreReadWithOrWithoutFractionsAndOffsets() throws {
        #expect(try ArchiveHandler.time("1970-01-01T00:00:00Z", field: "start") == 0)
        #expect(try ArchiveHandler.time("1971-01-01T01:02:03.123Z", field: "start") == 31_536_000_123 + 3_723_000)
        #expect(try ArchiveHandler.time(" 1970-01-01T02:00:00+02:00 ", field: "end") == 0)
        // What the gateway writes (`Timestamp`) reads back the same.
        #expect(try ArchiveHandler.time(Timestamp.iso8601(milliseconds: 1_764_470_400_042), field: "start") == 1_764_470_400_042)
    }

    @Test(arguments: ["yesterday", "", "2026-13-01T00:00:00Z", "2026-01-01"])
    func otherTextIsABadRequestNamingTheField(_ text: String) {
        #expect(throws: StanzaError.self) { try ArchiveHandler.time(text, field: "start") }
        do {
            _ = try ArchiveHandler.time(text, field: "start")
        } catch {
            #expect(error.condition == "bad-request" && error.text.contains("'start'"))
        }
    }
}
