/// `POST /v1/me/password` body.
public struct PasswordChange: Codable, Sendable, Equatable {
    /// The password the account has now.
    public var current: String
    /// The password it is to have; the same rules as at registration.
    public var new: String
    /// Keeps the account's other devices signed in (by default every other session is
    /// revoked and its WebSockets closed with 4001).
    public var keepOtherSessions: Bool?

    public init(current: String, new: String, keepOtherSessions: Bool? = nil) {
        self.current = current
        self.new = new
        self.keepOtherSessions = keepOtherSessions
    }
}

/// `POST /v1/auth/password-reset/verify` body.
public struct PasswordReset: Codable, Sendable, Equatable {
    public var phone: String
    public var code: String
    public var newPassword: String

    public init(phone: String, code: String, newPassword: String) {
        self.phone = phone
        self.code = code
        self.newPassword = newPassword
    }
}

/// `DELETE /v1/me/phone` body: unbinding a phone needs the account's password.
public struct PasswordConfirmation: Codable, Sendable, Equatable {
    public var password: String
    public init(password: String) { self.password = password }
}

/// `DELETE /v1/me` body: the password, or for an account without one a code sent to its
/// phone.
public struct AccountDeletion: Codable, Sendable, Equatable {
    public var password: String?
    public var code: String?
    public init(password: String? = nil, code: String? = nil) {
        self.password = password
        self.code = code
    }
}

/// How many of the account's sessions a change signed out (`POST /v1/me/password`,
/// `DELETE /v1/auth/sessions`).
public struct SessionsRevoked: Codable, Sendable, Equatable {
    public var revoked: Int
    public init(revoked: Int) { self.revoked = revoked }
}

/// Where an account export stands (`POST /v1/me/export`, `GET /v1/me/export` while it is
/// not ready).
public struct ExportStatus: Codable, Sendable, Equatable {
    /// `building`, `ready` or `failed`.
    public var status: String
    /// The share done, 0…1.
    public var progress: Double
    /// When the finished file is removed, ms since the epoch.
    public var expiresAt: Int64?
    /// The finished file's size in bytes.
    public var size: Int?

    public init(status: String, progress: Double, expiresAt: Int64? = nil, size: Int? = nil) {
        self.status = status
        self.progress = progress
        self.expiresAt = expiresAt
        self.size = size
    }
}
