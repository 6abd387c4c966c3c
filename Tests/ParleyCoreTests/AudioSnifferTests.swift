import ParleyCore
import TestSupport
import Testing

/// Voice recordings are told from their bytes: Opus in Ogg or WebM, with the length the
/// container records.
@Suite struct AudioSnifferTests {
    @Test func oggOpusLengthComesFromTheLastGranuleLessThePreSkip() {
        let result = AudioSniffer.sniff(VoiceRecordings.ogg(milliseconds: 12_340))
        #expect(result?.type == .ogg)
        #expect(result?.durationMs == 12_340)
        #expect(AudioSniffer.sniff(VoiceRecordings.ogg(milliseconds: 900, preSkip: 0))?.durationMs == 900)
    }

    @Test func webmWithoutDurationIsTimedByItsLastBlock() {
        // As a browser records live: unknown-size Segment and Clusters, no Duration.
        let result = AudioSniffer.sniff(VoiceRecordings.webm(milliseconds: 3_000))
        #expect(result?.type == .webm)
        #expect(result?.durationMs == 3_000)
        #expect(AudioSniffer.sniff(VoiceRecordings.webm(milliseconds: 61_500))?.durationMs == 61_500)
    }

    @Test func webmDurationElementIsUsedWhenPresent() {
        #expect(AudioSniffer.sniff(VoiceRecordings.webm(milliseconds: 2_500, declaredDuration: true))?.durationMs == 2_500)
    }

    @Test func onlyOpusIsAccepted() {
        #expect(AudioSniffer.sniff(VoiceRecordings.webm(milliseconds: 1_000, codec: "A_VORBIS")) == nil)
        var ogg = VoiceRecordings.ogg(milliseconds: 1_000)
        // Not an OpusHead in the first page: some other codec in Ogg.
        if let at = ogg.firstIndex(of: UInt8(ascii: "O"), after: 4) { ogg[at] = UInt8(ascii: "X") }
        #expect(AudioSniffer.sniff(ogg) == nil)
    }

    @Test func brokenOrForeignBytesAreNotAudio() {
        #expect(AudioSniffer.sniff([]) == nil)
        #expect(AudioSniffer.sniff(Array("OggS".utf8)) == nil)
        #expect(AudioSniffer.sniff([0x1A, 0x45, 0xDF, 0xA3]) == nil)
        #expect(AudioSniffer.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == nil)
        // Every prefix of a good recording is refused or read without a crash, never longer.
        let whole = VoiceRecordings.webm(milliseconds: 1_000)
        for end in stride(from: 0, to: whole.count, by: 7) {
            #expect((AudioSniffer.sniff(Array(whole[..<end]))?.durationMs ?? 0) <= 1_000)
        }
        let ogg = VoiceRecordings.ogg(milliseconds: 1_000)
        for end in stride(from: 0, to: ogg.count, by: 5) {
            #expect((AudioSniffer.sniff(Array(ogg[..<end]))?.durationMs ?? 0) <= 1_000)
        }
    }
}

private extension [UInt8] {
    func firstIndex(of byte: UInt8, after start: Int) -> Int? {
        self[(start + 1)...].firstIndex(of: byte)
    }
}
