import ParleyProtocol

// How a voice message reaches a Jabber client: its recording's link as the body, so any
// client shows something to open, and the same link as an out-of-band URL (XEP-0066),
// which clients that know it play inline; the description says it is a voice note and how
// long. Kept apart so the generic file mapping can take it over.
extension XMPPServices {
    /// The body and the out-of-band element for `voice`.
    func voiceParts(_ voice: VoiceAttachment) -> (body: String, extra: [XMLElement]) {
        let link = mediaLink(voice.url)
        let seconds = (voice.durationMs + 500) / 1000
        let description = "Voice message \(seconds / 60):\(String(seconds % 60).leftPadded(to: 2))"
        return (link, [Self.outOfBand(url: link, description: description)])
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
