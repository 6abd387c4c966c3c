public import ParleyProtocol

/// A profile update that was stored, as its observers hear of it
/// (`AccountService.observeProfileChanges`): the account as it is now, and which of the
/// fields other people see as events changed.
public struct ProfileChange: Sendable {
    public var account: Account
    /// Whether the nickname changed.
    public var nickname: Bool
    /// Whether the avatar changed.
    public var avatar: Bool

    public init(account: Account, nickname: Bool, avatar: Bool) {
        self.account = account
        self.nickname = nickname
        self.avatar = avatar
    }
}
