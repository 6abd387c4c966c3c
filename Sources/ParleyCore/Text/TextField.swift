/// Every free-text field a user can set that other people see or that is stored, each with
/// its wire name, how an error names it, and its default limit. `TextLimits` holds the limit
/// in force for each; `TextLimits.validate(_:as:)` is the one check every path (the native
/// protocol, HTTP, XMPP) goes through.
public enum TextField: String, CaseIterable, Sendable, Hashable {
    case nickname
    case signature
    /// One entry of a profile's hobbies.
    case hobby
    /// The note sent with a friend request.
    case greeting
    /// A group's or room's name.
    case name
    /// A group's or room's description (also XMPP's room subject).
    case description
    /// A text message.
    case text
    /// A message's client id (idempotency key).
    case clientId

    /// The field's place in `allCases` (declaration order), where `TextLimits` keeps its limit.
    var position: Int {
        switch self {
        case .nickname: 0
        case .signature: 1
        case .hobby: 2
        case .greeting: 3
        case .name: 4
        case .description: 5
        case .text: 6
        case .clientId: 7
        }
    }

    /// The field name errors carry (`ProtocolError.field`).
    public var wireName: String {
        switch self {
        case .hobby: "hobbies"
        default: rawValue
        }
    }

    /// The flag stem of its settings: `--max-<stem>-chars` and `--max-<stem>-bytes`.
    public var flagStem: String {
        switch self {
        case .clientId: "client-id"
        case .name: "name"
        default: rawValue
        }
    }

    /// How an error message names one value of the field.
    var noun: String {
        switch self {
        case .nickname: "a nickname"
        case .signature: "a signature"
        case .hobby: "a hobby"
        case .greeting: "a greeting"
        case .name: "a name"
        case .description: "a description"
        case .text: "a text message"
        case .clientId: "a client id"
        }
    }

    /// Whether control characters (C0/C1, including newlines) are refused: single-line
    /// fields shown in lists and headers.
    var refusesControlCharacters: Bool {
        switch self {
        case .nickname, .hobby, .name, .clientId: true
        case .signature, .greeting, .description, .text: false
        }
    }

    /// The limit a server has unless told otherwise.
    public var defaultLimit: TextLimit {
        switch self {
        case .nickname: TextLimit(characters: 0...32, bytes: 128)
        case .signature: TextLimit(characters: 0...200, bytes: 800)
        case .hobby: TextLimit(characters: 1...24, bytes: 96)
        case .greeting: TextLimit(characters: 0...200, bytes: 800)
        case .name: TextLimit(characters: 2...32, bytes: 128)
        case .description: TextLimit(characters: 0...200, bytes: 800)
        case .text: TextLimit(characters: 1...4000, bytes: 16_000)
        case .clientId: TextLimit(characters: 1...64, bytes: 256)
        }
    }
}

extension TextField {
    /// How settings help names the field.
    public var helpName: String {
        switch self {
        case .nickname: "a nickname"
        case .signature: "a profile signature"
        case .hobby: "one hobby"
        case .greeting: "a friend request's greeting"
        case .name: "a group or room name"
        case .description: "a group or room description"
        case .text: "a text message"
        case .clientId: "a message's client id"
        }
    }
}
