/// `POST /v1/auth/register` and `POST /v1/auth/login` bodies.
public struct Credentials: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    /// The name the device gives itself in the account's device list (else one is made up
    /// from the `User-Agent`).
    public var deviceName: String?
    public init(username: String, password: String, deviceName: String? = nil) {
        self.username = username
        self.password = password
        self.deviceName = deviceName
    }
}

/// A successful sign-in: the bearer token (shown once) and the account.
public struct AuthResult: Codable, Sendable, Equatable {
    /// The session token for `Authorization: Bearer` and the WebSocket `auth` operation.
    public var token: String
    /// The signed-in account.
    public var user: Account
    /// True when this sign-in created the account (first SMS login of a phone number).
    public var created: Bool

    public init(token: String, user: Account, created: Bool = false) {
        self.token = token
        self.user = user
        self.created = created
    }
}

/// `POST /v1/auth/sms/request` body.
public struct SMSCodeRequest: Codable, Sendable, Equatable {
    public var phone: String
    public init(phone: String) { self.phone = phone }
}

/// The answer to an SMS code request.
public struct SMSCodeSent: Codable, Sendable, Equatable {
    /// Seconds until another code may be requested for this number (a client counts down).
    public var retryAfterSeconds: Int
    /// Seconds the code stays valid.
    public var expiresInSeconds: Int
    /// How many digits the code has.
    public var codeLength: Int

    public init(retryAfterSeconds: Int, expiresInSeconds: Int, codeLength: Int) {
        self.retryAfterSeconds = retryAfterSeconds
        self.expiresInSeconds = expiresInSeconds
        self.codeLength = codeLength
    }
}

/// `POST /v1/auth/sms/verify` body.
public struct SMSCodeVerification: Codable, Sendable, Equatable {
    public var phone: String
    public var code: String
    /// As in `Credentials`; ignored where the verification signs nobody in (phone binding).
    public var deviceName: String?
    public init(phone: String, code: String, deviceName: String? = nil) {
        self.phone = phone
        self.code = code
        self.deviceName = deviceName
    }
}

/// One signed-in device of the user (`GET /v1/auth/sessions`).
public struct SessionInfo: Codable, Sendable, Equatable {
    /// The session's id (not its token).
    public var id: String
    /// When it signed in and when it was last used, ms since the epoch.
    public var createdAt: Int64
    public var lastSeenAt: Int64
    /// The client's `User-Agent` at sign-in, if it sent one.
    public var userAgent: String?
    /// True for the session making this request.
    public var current: Bool
    /// The name the client gave at sign-in, or one derived from its `User-Agent`.
    public var deviceName: String?
    /// The client address the session was last used from.
    public var lastAddress: String?

    public init(id: String, createdAt: Int64, lastSeenAt: Int64, userAgent: String?, current: Bool,
                deviceName: String? = nil, lastAddress: String? = nil) {
        self.id = id
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.userAgent = userAgent
        self.current = current
        self.deviceName = deviceName
        self.lastAddress = lastAddress
    }
}

/// `GET /v1/auth/sessions` answer.
public struct SessionList: Codable, Sendable, Equatable {
    public var sessions: [SessionInfo]
    public init(sessions: [SessionInfo]) { self.sessions = sessions }
}
