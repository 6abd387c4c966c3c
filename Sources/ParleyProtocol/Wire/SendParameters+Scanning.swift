/// `message.send`'s parameters read by hand in their plain shape: `conversationId`,
/// `clientId`, `kind`, and optionally `text` and `mediaId`, strings or null, in any order,
/// each once; anything else (another key, another type) is left to `JSONDecoder`.
extension SendParameters: FastJSONReadable {
    init?(scanning scanner: inout JSONScanner) {
        var conversation: ConversationID?
        var clientID: String?
        var kind: MessageKind?
        var text: String??
        var mediaID: String??
        let complete = scanner.object { key, scanner in
            switch key {
            case "conversationId" where conversation == nil:
                conversation = scanner.plainString()?.positiveInteger.map(ConversationID.init(rawValue:))
                return conversation != nil
            case "clientId" where clientID == nil:
                clientID = scanner.string()
                return clientID != nil
            case "kind" where kind == nil:
                switch scanner.plainString() {
                case "text"?: kind = .text
                case "image"?: kind = .image
                case "system"?: kind = .system
                default: return false
                }
                return true
            case "text" where text == nil:
                text = scanner.optionalString()
                return text != nil
            case "mediaId" where mediaID == nil:
                mediaID = scanner.optionalString()
                return mediaID != nil
            default:
                return false
            }
        }
        guard complete, let conversation, let clientID, let kind else { return nil }
        self.init(conversationId: conversation, clientId: clientID, kind: kind, text: text ?? nil, mediaId: mediaID ?? nil)
    }
}
