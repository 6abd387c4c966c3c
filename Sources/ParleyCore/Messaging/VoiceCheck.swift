public import ParleyProtocol

/// The rules a voice message's send must pass (docs/protocol.md, "Voice messages"). The
/// waveform is the client's (the server never decodes audio), so only its shape is checked;
/// the length the client states must agree with the one the recording's container holds,
/// read at upload (`AudioSniffer`), so a bubble never promises two seconds of a minute.
public enum VoiceCheck {
    /// How far the stated length may be from the container's: recorders start and stop a
    /// little apart from the clock a client reads, and WebM written live records the last
    /// packet's start, not its end.
    public static let toleranceMillis = 500
    /// …or this share of the length, when that is more (long recordings drift more).
    public static let tolerancePercent = 10

    /// The send's voice fields: a positive length, and a waveform of the fixed size with
    /// values in range.
    public static func parameters(_ parameters: SendParameters) throws(ProtocolError) {
        guard parameters.mediaId?.isEmpty == false else {
            throw ProtocolError(.missingField, "a voice message needs a mediaId", field: "mediaId")
        }
        guard let duration = parameters.durationMs else {
            throw ProtocolError(.missingField, "a voice message needs durationMs", field: "durationMs")
        }
        guard duration > 0 else {
            throw ProtocolError(.invalidField, "durationMs is a positive number of milliseconds", field: "durationMs")
        }
        guard let waveform = parameters.waveform else {
            throw ProtocolError(.missingField, "a voice message needs a waveform", field: "waveform")
        }
        guard waveform.count == VoiceAttachment.waveformLength,
              waveform.allSatisfy({ (0...VoiceAttachment.waveformMax).contains($0) }) else {
            throw ProtocolError(.invalidField, "a waveform is \(VoiceAttachment.waveformLength) values from 0 to \(VoiceAttachment.waveformMax)",
                                field: "waveform")
        }
        guard parameters.text == nil else {
            throw ProtocolError(.invalidField, "a voice message has no text", field: "text")
        }
    }

    /// The attachment for `media`, the user's recording, once the stated length agrees with it.
    static func attachment(_ media: StoredMedia, durationMs: Int, waveform: [Int]) throws(ProtocolError) -> VoiceAttachment {
        guard case .audio = media.type, let recorded = media.durationMs else {
            throw ProtocolError(.invalidField, "that mediaId is not a voice recording", field: "mediaId")
        }
        let tolerance = max(toleranceMillis, recorded * tolerancePercent / 100)
        guard abs(durationMs - recorded) <= tolerance else {
            throw ProtocolError(.invalidField, "durationMs \(durationMs) does not match the recording's \(recorded) ms", field: "durationMs")
        }
        return VoiceAttachment(mediaId: media.id, url: media.info.url, type: media.type.mimeType, durationMs: durationMs,
                               waveform: waveform)
    }
}
