public import Foundation
public import ParleyProtocol

// Voice messages (docs/protocol.md, "Voice messages"): a recording from disk sent as kind
// `voice`, and the first play of someone else's note marked listened.
extension ParleyClient {
    /// Uploads the Opus recording (WebM or Ogg) at `url` and sends it as a voice message.
    /// The caller measured `durationMs` and computed `waveform`
    /// (`VoiceAttachment.waveformLength` values of `0...VoiceAttachment.waveformMax`); the
    /// server checks the length against the recording's own. Sent at once, not through the
    /// outbox; a retry with the same `clientId` never sends twice. Errors: `payload_too_large`,
    /// `unsupported_media_type`, `invalid_field`, `missing_field`.
    @discardableResult
    public func sendVoice(fileAt url: URL, durationMs: Int, waveform: [Int], to conversation: ConversationID,
                          clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            throw ParleyError.storage("cannot read \(url.path): \(error.localizedDescription)")
        }
        let media = try await uploadImage(bytes)
        let sent: Message = try await call(Op.MessageSend.self, SendParameters(
            conversationId: conversation, clientId: clientId, kind: .voice, mediaId: media.id, durationMs: durationMs,
            waveform: waveform))
        ingest([sent])
        return sent
    }

    /// `message.listened`: the user played `message`, someone else's voice note. The message
    /// in its new state is cached and reported (`.messageUpdated`) when the server kept the
    /// mark; with read receipts off on either side it keeps none and the message is as it was.
    @discardableResult
    public func markListened(_ message: Message, clientId: String = ParleyClient.newClientID()) async throws(ParleyError) -> Message {
        let result: ListenResult = try await call(Op.MessageListened.self, MessageActionParameters(
            conversationId: message.conversationId, messageId: message.id, clientId: clientId))
        if let event = result.event { applyUpdate(MessageUpdate(event: event, message: result.message)) }
        return result.message
    }
}
