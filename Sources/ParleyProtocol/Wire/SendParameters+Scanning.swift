/// `message.send`'s parameters read by hand in their plain shape: `conversationId`,
/// `clientId`, `kind`, and optionally `text`, `mediaId` and `replyTo` (strings or null),
/// `mentions` (an array of decimal id strings) and `mentionsAll` (true or false), in any
/// order, each once; anything else (another key, another type) is left to `JSONDecoder`.
extension SendParameters: FastJSONReadable {
    init?(scanning scanner: inout JSONScanner) {
        var conversation: ConversationID?
        var clientID: String?
        var kind: MessageKind?
        var text: String??
        var mediaID: String??
        var replyTo: String??
        var mentions: [UserID]?
        var mentionsAll: Bool?
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
                case "file"?: kind = .file
                default: return false
                }
                return true
            case "text" where text == nil:
                text = scanner.optionalString()
                return text != nil
            case "mediaId" where mediaID == nil:
                mediaID = scanner.optionalString()
                return mediaID != nil
            case "replyTo" where replyTo == nil:
                replyTo = scanner.optionalString()
                return replyTo != nil
            case "mentions" where mentions == nil:
                var ids: [UserID] = []
                guard scanner.array({ scanner in
                    guard let id = scanner.plainString()?.positiveInteger else { return false }
                    ids.append(UserID(rawValue: id))
                    return true
                }) else { return false }
                mentions = ids
                return true
            case "mentionsAll" where mentionsAll == nil:
                mentionsAll = scanner.bool()
                return mentionsAll != nil
            default:
                return false
            }
        }
        guard complete, let conversation, let clientID, let kind else { return nil }
        self.init(conversationId: conversation, clientId: clientID, kind: kind, text: text ?? nil, mediaId: mediaID ?? nil,
                  replyTo: replyTo ?? nil, mentions: mentions, mentionsAll: mentionsAll)
    }
}
