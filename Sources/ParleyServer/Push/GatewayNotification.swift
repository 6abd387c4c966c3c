/// The body of `POST /_matrix/push/v1/notify` (the Matrix Push Gateway API), which a gateway
/// such as Sygnal turns into an APNs or FCM push: field names as the API spells them.
struct GatewayNotification: Codable, Sendable {
    struct Notification: Codable, Sendable {
        struct Content: Codable, Sendable {
            var msgtype: String
            var body: String
        }

        struct Counts: Codable, Sendable {
            var unread: Int64
        }

        struct Device: Codable, Sendable {
            var app_id: String
            var pushkey: String
            var pushkey_ts: Int64
        }

        var event_id: String
        var room_id: String?
        var type: String
        var sender: String?
        var sender_display_name: String?
        var room_name: String?
        var content: Content?
        var counts: Counts
        var prio: String
        var devices: [Device]
    }

    var notification: Notification
}

/// A gateway's answer: the push keys it will not deliver to any more.
struct GatewayAnswer: Codable, Sendable {
    var rejected: [String]
}
