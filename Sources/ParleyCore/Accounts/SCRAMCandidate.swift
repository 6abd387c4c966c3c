public import ParleyProtocol

/// Who a SCRAM sign-in claims to be, and the credential its proof must match.
public struct SCRAMCandidate: Sendable {
    public var account: Account
    public var credential: StoredSCRAMCredential
    /// Why the account may not sign in even with the right password (a suspension), told
    /// only after the proof: before it, a suspended account looks like any other, so the
    /// exchange does not tell a stranger that the username exists or is suspended.
    public var refusal: ProtocolError?

    public init(account: Account, credential: StoredSCRAMCredential, refusal: ProtocolError? = nil) {
        self.account = account
        self.credential = credential
        self.refusal = refusal
    }
}
