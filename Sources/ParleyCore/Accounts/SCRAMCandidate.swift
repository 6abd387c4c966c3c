public import ParleyProtocol

/// Who a SCRAM sign-in claims to be, and the credential its proof must match.
public struct SCRAMCandidate: Sendable {
    public var account: Account
    public var credential: StoredSCRAMCredential

    public init(account: Account, credential: StoredSCRAMCredential) {
        self.account = account
        self.credential = credential
    }
}
