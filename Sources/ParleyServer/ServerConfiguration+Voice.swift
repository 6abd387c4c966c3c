import ParleyCore

// The limits of voice recordings (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func voiceOptions() -> [Option] {
        [
            number("max-voice-seconds", \.maxVoiceSeconds, 1...3_600, "longest voice recording, as its container records it", exceeded: "413 `payload_too_large` on upload"),
            number("max-voice-bytes", \.maxVoiceBytes, 1024...1 << 30, "largest voice recording (--max-media-bytes applies too)", exceeded: "413 `payload_too_large` on upload"),
        ]
    }

    /// Copies the voice limits into the upload rules.
    func applyVoiceRules(to rules: inout MediaRules) {
        rules.maxVoiceBytes = maxVoiceBytes
        rules.maxVoiceMillis = maxVoiceSeconds * 1000
    }
}
