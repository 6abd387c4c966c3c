public import ParleyProtocol

/// Where one signed-in device of a user takes push notifications: a browser's Web Push
/// subscription (RFC 8030), or a native app's device behind a push gateway (the Matrix Push
/// Gateway API). Each belongs to the sign-in session that registered it and ends with it.
public struct StoredPushTarget: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A Web Push subscription: `endpoint` is the push service's URL, with `p256dh` and `auth`.
        case webPush = "web"
        /// A device at a push gateway: `endpoint` is the gateway's notify URL, with `appID` and `pushkey`.
        case gateway
    }

    /// A random public id.
    public var id: String
    public var userID: UserID
    public var sessionID: String
    public var kind: Kind
    public var endpoint: String
    /// Web Push: the browser's P-256 public key (65 bytes); a gateway: empty.
    public var p256dh: [UInt8]
    /// Web Push: the 16-byte authentication secret; a gateway: empty.
    public var auth: [UInt8]
    /// A gateway: the app's id and the device's push key; Web Push: empty.
    public var appID: String
    public var pushkey: String
    public var createdAt: Int64

    public init(id: String, userID: UserID, sessionID: String, kind: Kind, endpoint: String, p256dh: [UInt8] = [], auth: [UInt8] = [],
                appID: String = "", pushkey: String = "", createdAt: Int64) {
        self.id = id
        self.userID = userID
        self.sessionID = sessionID
        self.kind = kind
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.appID = appID
        self.pushkey = pushkey
        self.createdAt = createdAt
    }

    /// What makes a target unique: one Web Push endpoint, or one app's push key. Registering
    /// it again (another sign-in on the same browser) replaces the older registration.
    public var address: String {
        kind == .webPush ? endpoint : appID + "\n" + pushkey
    }
}
