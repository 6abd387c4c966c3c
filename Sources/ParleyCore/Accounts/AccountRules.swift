/// Every account limit, named once; the server fills it from its configuration.
public struct AccountRules: Sendable, Equatable {
    /// Username length in characters, and the characters allowed (ASCII letters, digits, `_ . -`).
    public var usernameLength: ClosedRange<Int> = 3...32
    /// Password length in UTF-8 bytes.
    public var passwordBytes: ClosedRange<Int> = 8...256
    /// Nickname, signature and hobby lengths in characters and bytes (shared with
    /// `MessagingRules.text`; the server sets both from one configuration).
    public var text = TextLimits()
    public var maxAvatarURLLength = 512
    public var maxHobbies = 10
    public var ageRange: ClosedRange<Int> = 1...150
    /// SMS code digits (4…8).
    public var smsCodeLength = 6
    /// Seconds an SMS code stays valid.
    public var smsCodeLifetimeSeconds = 600
    /// Wrong guesses allowed per code before it is void.
    public var smsMaxAttempts = 5
    /// Seconds between two codes for one phone number.
    public var smsResendIntervalSeconds = 60
    /// Codes one phone number may be sent per day (counted in the store, so a restart does
    /// not reset it; the per-address and login limits are in memory).
    public var smsMaxPerPhonePerDay = 10
    /// Code requests one client address may make per hour.
    public var smsMaxPerAddressPerHour = 20
    /// Country code for 11-digit national mobile numbers written without one (seed 002).
    public var smsDefaultCountryCode = "86"
    /// Failed logins one username may have in `loginWindowSeconds` before it must wait.
    public var loginFailuresPerAccount = 10
    /// Failed logins one client address may have in `loginWindowSeconds`.
    public var loginFailuresPerAddress = 100
    public var loginWindowSeconds = 900
    /// Accounts one client address may register per hour.
    public var registrationsPerAddressPerHour = 30
    /// A session's last-seen time is written at most this often, in seconds.
    public var sessionTouchIntervalSeconds = 300
    /// A device name's length in characters (longer names are cut).
    public var deviceNameLength = 64
    /// Days a deleted account's username stays reserved (0: free at once).
    public var usernameQuarantineDays = 30
    /// Whether a deleted account's messages lose their content (else they stay, from
    /// "Deleted user").
    public var eraseMessagesOnDelete = false

    public init() {}
}
