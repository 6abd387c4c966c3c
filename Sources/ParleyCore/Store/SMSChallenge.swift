/// The outstanding SMS code of one phone number.
public struct SMSChallenge: Sendable, Equatable {
    public var phone: String
    /// SHA-256 of the code (codes are never stored in the clear).
    public var codeHash: [UInt8]
    public var sentAt: Int64
    public var expiresAt: Int64
    /// Wrong guesses so far.
    public var failedAttempts: Int

    public init(phone: String, codeHash: [UInt8], sentAt: Int64, expiresAt: Int64, failedAttempts: Int) {
        self.phone = phone
        self.codeHash = codeHash
        self.sentAt = sentAt
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
    }
}
