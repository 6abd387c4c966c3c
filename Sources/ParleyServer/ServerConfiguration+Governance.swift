import ParleyCore

// The limits of group governance (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func governanceOptions() -> [Option] {
        [
            number("max-group-admins", \.maxGroupAdmins, 0...1000, "admins one group may have besides its owner", exceeded: "`group.admin.add` is answered `too_many_admins`"),
            number("max-group-invites", \.maxGroupInvites, 1...10_000, "usable invite links one group may have at once", exceeded: "`group.invite.create` is answered `invalid_field`"),
            number("max-join-requests", \.maxJoinRequests, 1...100_000, "pending join requests one group keeps", exceeded: "`group.join` is answered `rate_limited`"),
            number("max-ban-reason", \.maxBanReason, 1...10_000, "characters of a ban's reason", exceeded: "`group.ban` / `room.ban` is answered `invalid_field` (field `reason`)"),
        ]
    }

    /// Copies the governance limits into the core's rules.
    func applyGovernanceRules(to rules: inout MessagingRules) {
        rules.maxGroupAdmins = maxGroupAdmins
        rules.maxGroupInvites = maxGroupInvites
        rules.maxJoinRequests = maxJoinRequests
        rules.maxBanReasonCharacters = maxBanReason
    }
}
