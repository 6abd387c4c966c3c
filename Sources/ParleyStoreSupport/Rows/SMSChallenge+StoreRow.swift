import ParleyCore

extension SMSChallenge {
    /// The `sms_challenges` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "phone, code_hash, sent_at, expires_at, failed_attempts"

    /// A challenge from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        self.init(phone: try row.string(0),
                  codeHash: try row.bytes(1),
                  sentAt: try row.int64(2),
                  expiresAt: try row.int64(3),
                  failedAttempts: try row.int(4))
    }
}
