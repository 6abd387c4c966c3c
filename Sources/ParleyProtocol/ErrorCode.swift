/// Every error code Parley sends: stable snake_case strings, each with its HTTP status.
/// A client switches on these, never on messages.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    // Request shape
    case badRequest = "bad_request"                    // body is not the JSON expected
    case invalidField = "invalid_field"                // a field has a bad type or value (see `field`)
    case missingField = "missing_field"                // a required field is absent (see `field`)
    case unknownOperation = "unknown_operation"        // WebSocket op not known
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case forbidden = "forbidden"                       // e.g. a browser origin not allowed on the WebSocket
    case payloadTooLarge = "payload_too_large"
    case rangeNotSatisfiable = "range_not_satisfiable" // a download's Range names no byte of the file
    case uriTooLong = "uri_too_long"
    case headersTooLarge = "headers_too_large"
    case upgradeRequired = "upgrade_required"          // WebSocket version other than 13
    case httpVersionNotSupported = "http_version_not_supported"
    case unsupportedUpgrade = "unsupported_upgrade"    // an Upgrade other than WebSocket (h2c, …)
    case requestTimeout = "request_timeout"            // a request head or body too slow to arrive
    case misdirectedRequest = "misdirected_request"    // a Host that is not one of the server's names
    case unsupportedMediaType = "unsupported_media_type"
    case urlExpired = "url_expired"                    // a signed media link's time is up: ask for a new one (`media.url`)
    case badSignature = "bad_signature"                // a media link whose signature does not match its id and expiry
    case uploadOffsetMismatch = "upload_offset_mismatch" // a resumable upload's piece does not start where the upload stands (or another piece is arriving)
    // Authentication
    case unauthorized = "unauthorized"                 // no token, unknown token, or signed out
    case invalidCredentials = "invalid_credentials"    // wrong username or password (never says which)
    case invalidUsername = "invalid_username"
    case invalidPassword = "invalid_password"
    case usernameTaken = "username_taken"
    case usernameAlreadySet = "username_already_set"
    case phoneTaken = "phone_taken"                    // another account has this phone number
    case passwordNotSet = "password_not_set"           // a phone-only account has no password to check or change
    case invalidPhone = "invalid_phone"
    case invalidCode = "invalid_code"
    case codeExpired = "code_expired"
    case tooManyAttempts = "too_many_attempts"
    case rateLimited = "rate_limited"
    case quotaExceeded = "quota_exceeded"              // uploads over a per-user quota (`retryAfterSeconds` when waiting helps)
    case authRequired = "auth_required"                // WebSocket: first frame must be `auth`
    case suspended = "suspended"                       // the account is suspended (`until`, `reason`)
    case notAdmin = "not_admin"                        // an admin is needed: of the group (its owner or an admin), or the admin role for the admin API
    // Messaging
    case notMember = "not_member"                      // not in the group, 1:1 conversation or room
    case notOwner = "not_owner"                        // only the group's owner may do this
    case notFriends = "not_friends"                    // 1:1 messages need a friendship
    case blocked = "blocked"                           // one of the two blocked the other
    case alreadyFriends = "already_friends"
    case nameTaken = "name_taken"                      // a group or room has this name
    case invalidName = "invalid_name"
    case notSender = "not_sender"                      // only the message's sender may do this (edit, recall)
    case windowClosed = "window_closed"                // too late: the edit or recall window has passed
    // Group governance
    case banned = "banned"                             // the user is banned from the group or room
    case muted = "muted"                               // the member is muted in the group until `retryAfterSeconds`
    case inviteOnly = "invite_only"                    // the group is joined only by an invite link or a member's invitation
    case inviteExpired = "invite_expired"              // the invite link's time is up
    case inviteUsedUp = "invite_used_up"               // the invite link was used as often as it allows
    case inviteRevoked = "invite_revoked"              // an admin revoked the invite link
    case tooManyAdmins = "too_many_admins"             // the group has `--max-group-admins` admins already
    // Server
    case smsDeliveryFailed = "sms_delivery_failed"
    case internalError = "internal_error"
    case unavailable = "unavailable"

    /// The HTTP status that goes with the code.
    public var httpStatus: Int {
        switch self {
        case .badRequest, .invalidField, .missingField, .unknownOperation, .invalidUsername,
             .invalidPassword, .invalidPhone, .authRequired, .invalidName: return 400
        case .unauthorized, .invalidCredentials, .invalidCode, .codeExpired: return 401
        case .forbidden, .notMember, .notOwner, .notFriends, .blocked, .notSender, .windowClosed: return 403
        case .suspended, .notAdmin, .banned, .muted, .inviteOnly: return 403
        case .urlExpired, .badSignature: return 403
        case .inviteExpired, .inviteUsedUp, .inviteRevoked: return 410
        case .tooManyAdmins, .uploadOffsetMismatch: return 409
        case .notFound: return 404
        case .methodNotAllowed: return 405
        case .usernameTaken, .usernameAlreadySet, .alreadyFriends, .nameTaken, .phoneTaken, .passwordNotSet: return 409
        case .payloadTooLarge: return 413
        case .rangeNotSatisfiable: return 416
        case .uriTooLong: return 414
        case .upgradeRequired: return 426
        case .headersTooLarge: return 431
        case .httpVersionNotSupported: return 505
        case .unsupportedMediaType: return 415
        case .unsupportedUpgrade: return 501
        case .requestTimeout: return 408
        case .misdirectedRequest: return 421
        case .tooManyAttempts, .rateLimited, .quotaExceeded: return 429
        case .smsDeliveryFailed: return 502
        case .internalError: return 500
        case .unavailable: return 503
        }
    }
}

/// An error as it travels: `{"error": {"code", "message", "field"?, "retryAfterSeconds"?}}`
/// over HTTP, and the `error` member of a WebSocket response.
public struct ProtocolError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// The machine-readable code.
    public var code: ErrorCode
    /// A human-readable explanation (English).
    public var message: String
    /// The request field at fault, for field errors.
    public var field: String?
    /// For rate limits: seconds until a retry may succeed.
    public var retryAfterSeconds: Int?
    /// For `suspended`: when the suspension ends (milliseconds; nil: until lifted).
    public var until: Int64?
    /// For `suspended`: the reason an administrator gave.
    public var reason: String?

    public init(_ code: ErrorCode, _ message: String, field: String? = nil, retryAfterSeconds: Int? = nil,
                until: Int64? = nil, reason: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfterSeconds = retryAfterSeconds
        self.until = until
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The HTTP error body: `{"error": {...}}`.
public struct ErrorBody: Codable, Sendable, Equatable {
    public var error: ProtocolError
    public init(error: ProtocolError) { self.error = error }
}
