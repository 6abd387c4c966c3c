public import ParleyProtocol

/// Deleting an account: every rule of it in one place, for the HTTP API and the Jabber
/// gateway (XEP-0077) alike. The user leaves their rooms and groups first (a group's
/// ownership passes on as on any leave), then one write erases everything personal
/// (`StoreWriter.eraseUser`) and reserves the username; afterwards the media files go, the
/// friends are told, and the caller closes the connections of the sessions it returns.
public final class AccountDeletionService: Sendable {
    let accounts: AccountService
    let groups: GroupService
    let rooms: RoomService
    let context: MessagingContext
    let media: MediaService

    public init(accounts: AccountService, groups: GroupService, rooms: RoomService, context: MessagingContext,
                media: MediaService) {
        self.accounts = accounts
        self.groups = groups
        self.rooms = rooms
        self.context = context
        self.media = media
    }

    /// Deletes the signed-in user's account after checking their password, or, for an
    /// account without one, a code sent to its phone (`/v1/auth/sms/request`). Returns the
    /// ids of every session it ended.
    public func delete(_ userID: UserID, password: String?, code: String?,
                       clientAddress: String) async throws(ProtocolError) -> [String] {
        let user = try await accounts.read { reader in try reader.user(id: userID) }
        guard let user, user.deletedAt == nil else { throw ProtocolError(.unauthorized, "the account no longer exists") }
        if user.passwordHash != nil {
            guard let password else { throw ProtocolError(.missingField, "send the account's password", field: "password") }
            _ = try await accounts.verifyCurrentPassword(of: userID, password: password, field: "password",
                                                         clientAddress: clientAddress)
        } else {
            guard let code, let phone = user.phone else {
                throw ProtocolError(.missingField, "send a code sent to the account's phone", field: "code")
            }
            try accounts.validator.validateCode(code)
            let now = accounts.clock()
            let codeHash = accounts.secrets.hash(phone + ":" + code)
            let failure = try await accounts.write { [accounts] writer in
                try accounts.consumeSMSCode(phone: phone, codeHash: codeHash, now: now, writer: writer)
            }
            if let failure { throw failure }
        }
        return try await erase(user)
    }

    /// Deletes the account of a connection that signed in with the password itself (a
    /// Jabber stream, XEP-0077, which sends no password again). Returns the ended sessions.
    public func deleteSignedInStream(of userID: UserID) async throws(ProtocolError) -> [String] {
        let user = try await accounts.read { reader in try reader.user(id: userID) }
        guard let user, user.deletedAt == nil, user.passwordHash != nil else {
            throw ProtocolError(.unauthorized, "the account no longer exists")
        }
        return try await erase(user)
    }

    /// Erases an account whose owner has proved who they are.
    func erase(_ user: StoredUser) async throws(ProtocolError) -> [String] {
        let id = user.id
        await rooms.leaveAll(id)
        let groupIDs = try await accounts.read { reader in try reader.conversationIDs(of: id, kind: .group) }
        for group in groupIDs {
            // A group left meanwhile (or gone) is no reason to stop.
            try? await groups.leave(by: id, ConversationReference(conversationId: group))
        }
        let rules = accounts.rules
        let now = accounts.clock()
        let quarantine = user.username.map(accounts.usernameHash)
        let until = now + Int64(rules.usernameQuarantineDays) * 86_400_000
        let membership = context.membership
        let erased = try await accounts.write { writer in
            let erased = try writer.eraseUser(id, at: now, erasingMessages: rules.eraseMessagesOnDelete)
            for friend in erased.friends { membership.invalidatePair(id, friend) }
            if let quarantine, rules.usernameQuarantineDays > 0 {
                try writer.quarantineUsername(hash: quarantine, until: until, now: now)
            }
            return erased
        }
        await media.removeFiles(erased.mediaIDs)
        for friend in erased.friends {
            context.delivery.deliver(.friendRemoved(UserReference(userId: id)), to: [friend], excluding: nil)
        }
        return erased.sessionIDs
    }
}
