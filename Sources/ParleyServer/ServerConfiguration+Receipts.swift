import ParleyCore

// The limits of typing notices (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func receiptOptions() -> [Option] {
        [
            number("typing-timeout", \.typingTimeoutSeconds, 1...300, "seconds a `typing.start` shows without a refresh", exceeded: "the server ends it and sends `typing` with `typing: false`"),
            number("max-typing-per-minute", \.maxTypingPerMinute, 1...10_000, "`typing.start` and `typing.stop` one user may send per minute", exceeded: "answered `rate_limited` with `retryAfterSeconds`"),
        ]
    }

    /// Copies the typing limits into the core's rules.
    func applyReceiptRules(to rules: inout MessagingRules) {
        rules.typingTimeout = .seconds(typingTimeoutSeconds)
        rules.typingPerMinute = maxTypingPerMinute
    }
}
