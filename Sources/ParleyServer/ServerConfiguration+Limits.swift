import ParleyCore
import ParleyProtocol

// The limits clients read before they send (`GET /v1/limits`, docs/protocol.md "Limits").
extension ServerConfiguration {
    /// The settings clients need, as the server runs with them: one place, so a client never
    /// assumes a default the operator changed.
    var publishedLimits: ServerLimits {
        ServerLimits(maxVoiceSeconds: maxVoiceSeconds, maxVoiceBytes: maxVoiceBytes, maxFileBytes: maxFileBytes,
                     maxImageBytes: maxMediaBytes, maxTextCharacters: textLimits[.text].maxCharacters,
                     maxTextBytes: textLimits[.text].bytes, editWindowSeconds: editWindowSeconds,
                     recallWindowSeconds: recallWindowSeconds)
    }
}
