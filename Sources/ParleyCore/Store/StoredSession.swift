public import ParleyProtocol

/// A signed-in device: only the token's hash is stored.
public struct StoredSession: Sendable, Equatable {
    /// A public id for listing and revoking (not the token).
    public var id: String
    public var userID: UserID
    /// SHA-256 of the bearer token.
    public var tokenHash: [UInt8]
    public var createdAt: Int64
    public var lastSeenAt: Int64
    public var userAgent: String?
    /// The name shown in the account's device list: the client's own, or one derived from
    /// the `User-Agent` (`DeviceName`).
    public var deviceName: String?
    /// The client address of the sign-in, then of the latest use that touched the session.
    public var lastAddress: String?

    public init(id: String, userID: UserID, tokenHash: [UInt8], createdAt: Int64, lastSeenAt: Int64, userAgent: String?,
                deviceName: String? = nil, lastAddress: String? = nil) {
        self.id = id
        self.userID = userID
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.userAgent = userAgent
        self.deviceName = deviceName
        self.lastAddress = lastAddress
    }
}
