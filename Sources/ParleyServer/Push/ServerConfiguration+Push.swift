// The push notification settings (docs/operations.md, "Push notifications").
extension ServerConfiguration {
    static func pushOptions() -> [Option] {
        [
            number("push-per-user-per-minute", \.pushPerUserPerMinute, 1...10_000, "push notifications one user may be sent in any minute", exceeded: "the push is dropped (`parley_push_total{outcome=\"dropped\"}`); the next one carries the counts"),
            number("push-coalesce-ms", \.pushCoalesceMilliseconds, 0...600_000, "milliseconds the messages for one user in one conversation are gathered into one push", exceeded: "the push goes out with the count of messages gathered"),
            number("push-retries", \.pushRetries, 0...20, "times a push that failed for a passing reason (no answer, 429, 5xx) is tried again, after 1, 2, 4 … seconds", exceeded: "the push is given up (`parley_push_total{outcome=\"failed\"}`)"),
            number("push-timeout", \.pushTimeoutSeconds, 1...600, "seconds one push request may take", exceeded: "the request counts as failed and is retried"),
            number("push-max-queued", \.pushMaxQueued, 1...10_000_000, "pushes waiting to be sent at once", exceeded: "new pushes are dropped (`parley_push_total{outcome=\"dropped\"}`)"),
            number("push-targets-per-user", \.pushTargetsPerUser, 1...1_000, "push registrations (browsers, app devices) one user may have", exceeded: "a new registration replaces the user's oldest"),
            number("push-max-url-bytes", \.pushMaxURLBytes, 64...65_536, "longest Web Push endpoint or push gateway URL accepted", exceeded: "400 `invalid_field` (`endpoint` or `gatewayUrl`)"),
            number("push-max-key-bytes", \.pushMaxKeyBytes, 16...65_536, "longest app id or push key of an app device", exceeded: "400 `invalid_field` (`appId` or `pushkey`)"),
            choice("push-allow-loopback", \.pushAllowLoopback, ["no", "yes"], "yes: push endpoints and gateways on this machine (plain HTTP to loopback) may be registered and reached; for tests only (clients choose those URLs)"),
            text("push-contact", \.pushContact, "the contact push services see in VAPID tokens (a mailto: or https: URL)"),
            text("push-gateway-url", \.pushGatewayURL, "push gateway (Matrix Push Gateway API, e.g. Sygnal's https://host/_matrix/push/v1/notify) for app devices registered without gatewayUrl; empty: such devices are refused"),
        ]
    }
}
