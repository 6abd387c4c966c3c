public import ParleyProtocol

/// Changing and resetting the password, binding the phone, and signing devices out.
extension AccountService {
    // MARK: Password

    /// Changes the password after checking the current one (a wrong one counts toward the
    /// sign-in failure limits, as at login). Every other session is revoked unless
    /// `keepOtherSessions`; the SCRAM credentials change in the same write. Returns the ids
    /// of the revoked sessions, whose connections the caller closes.
    public func changePassword(of session: AuthenticatedSession, current: String, new: String, keepOtherSessions: Bool,
                               clientAddress: String) async throws(ProtocolError) -> [String] {
        do {
            try validator.validatePassword(new)
        } catch {
            throw ProtocolError(error.code, error.message, field: "new")
        }
        let user = try await verifyCurrentPassword(of: session.userID, password: current, field: "current",
                                                   clientAddress: clientAddress)
        return try await replacePassword(of: user.id, with: new, revokingSessionsBut: keepOtherSessions ? nil : .some(session.sessionID))
    }

    /// Sets the password of a user whose connection signed in with the current one moments
    /// ago (a Jabber stream, XEP-0077: the protocol sends no current password), with the
    /// registration rules; every stored session is revoked. Returns their ids.
    public func changePasswordOfSignedInStream(of userID: UserID, new: String) async throws(ProtocolError) -> [String] {
        try validator.validatePassword(new)
        return try await replacePassword(of: userID, with: new, revokingSessionsBut: .some(nil))
    }

    /// The new password's hash and SCRAM keys in one write, and the revocation:
    /// `revokingSessionsBut` nil revokes none, `.some(id)` every session but `id`.
    private func replacePassword(of userID: UserID, with new: String,
                                 revokingSessionsBut keeping: String??) async throws(ProtocolError) -> [String] {
        let (hash, credentials) = try await derivedSecrets(of: new)
        return try await write { writer in
            guard var stored = try writer.user(id: userID) else {
                throw ProtocolError(.unauthorized, "the account no longer exists")
            }
            stored.passwordHash = hash
            try writer.updateUser(stored)
            try writer.replaceSCRAMCredentials(of: userID, with: credentials)
            guard let keeping else { return [] }
            return try writer.deleteSessions(of: userID, keeping: keeping)
        }
    }

    /// Sends a reset code to `phone` if an account has it; answers the same either way, and
    /// a number without an account gets a code saved (never sent) under the same limits, so
    /// neither this answer nor the next ones tell whether the number is registered.
    public func requestPasswordReset(phone input: String, clientAddress: String) async throws(ProtocolError) -> SMSCodeSent {
        let phone = try validator.normalizePhone(input)
        return try await issueSMSCode(phone: phone, clientAddress: clientAddress) { writer in
            try writer.user(phone: phone) != nil
        }
    }

    /// Sets a new password with a code sent to the account's phone, and signs every device
    /// out. A number without an account fails exactly as a wrong code does.
    public func resetPassword(phone input: String, code: String, newPassword: String) async throws(ProtocolError) -> PasswordResetOutcome {
        let phone = try validator.normalizePhone(input)
        try validator.validateCode(code)
        do {
            try validator.validatePassword(newPassword)
        } catch {
            throw ProtocolError(error.code, error.message, field: "newPassword")
        }
        let (hash, credentials) = try await derivedSecrets(of: newPassword)
        let now = clock()
        let codeHash = secrets.hash(phone + ":" + code)
        let outcome: Result<PasswordResetOutcome, ProtocolError> = try await write { [self] writer in
            if let failure = try consumeSMSCode(phone: phone, codeHash: codeHash, now: now, writer: writer) {
                return .failure(failure)
            }
            // Unreachable for an unregistered number in practice (its code was never sent),
            // and answered as a wrong code all the same.
            guard var user = try writer.user(phone: phone) else {
                return .failure(ProtocolError(.invalidCode, "wrong code", field: "code"))
            }
            user.passwordHash = hash
            try writer.updateUser(user)
            try writer.replaceSCRAMCredentials(of: user.id, with: credentials)
            return .success(PasswordResetOutcome(user: user.id, revokedSessions: try writer.deleteSessions(of: user.id, keeping: nil)))
        }
        return try outcome.get()
    }

    // MARK: Phone

    /// Sends a code to a phone number the account wants to bind; refused with `phone_taken`
    /// when another account has it.
    public func requestPhoneBinding(of session: AuthenticatedSession, phone input: String,
                                    clientAddress: String) async throws(ProtocolError) -> SMSCodeSent {
        let phone = try validator.normalizePhone(input)
        if let owner = try await read({ reader in try reader.user(phone: phone) }), owner.id != session.userID {
            throw ProtocolError(.phoneTaken, "another account has this phone number", field: "phone")
        }
        return try await issueSMSCode(phone: phone, clientAddress: clientAddress, deliverIf: nil)
    }

    /// Binds the number whose code was sent, replacing (unbinding) the account's old one.
    public func verifyPhoneBinding(of session: AuthenticatedSession, phone input: String,
                                   code: String) async throws(ProtocolError) -> Account {
        let phone = try validator.normalizePhone(input)
        try validator.validateCode(code)
        let now = clock()
        let codeHash = secrets.hash(phone + ":" + code)
        let outcome: Result<Account, ProtocolError> = try await write { [self] writer in
            if let owner = try writer.user(phone: phone), owner.id != session.userID {
                return .failure(ProtocolError(.phoneTaken, "another account has this phone number", field: "phone"))
            }
            if let failure = try consumeSMSCode(phone: phone, codeHash: codeHash, now: now, writer: writer) {
                return .failure(failure)
            }
            guard var user = try writer.user(id: session.userID) else {
                return .failure(ProtocolError(.unauthorized, "the account no longer exists"))
            }
            user.phone = phone
            do {
                try writer.updateUser(user)
            } catch StoreError.conflict {
                // Another server bound it meanwhile (PostgreSQL); the code stays unused.
                throw ProtocolError(.phoneTaken, "another account has this phone number", field: "phone")
            }
            return .success(user.account)
        }
        return try outcome.get()
    }

    /// Removes the account's phone number; needs the password, and an account without one
    /// keeps its number (it is its only way to sign in).
    public func unbindPhone(of session: AuthenticatedSession, password: String,
                            clientAddress: String) async throws(ProtocolError) -> Account {
        _ = try await verifyCurrentPassword(of: session.userID, password: password, field: "password",
                                            clientAddress: clientAddress)
        return try await write { writer in
            guard var user = try writer.user(id: session.userID) else {
                throw ProtocolError(.unauthorized, "the account no longer exists")
            }
            user.phone = nil
            try writer.updateUser(user)
            return user.account
        }
    }

    // MARK: Devices

    /// Signs every device of the account out but the one asking; returns the revoked ids.
    public func revokeOtherSessions(of session: AuthenticatedSession) async throws(ProtocolError) -> [String] {
        try await write { writer in try writer.deleteSessions(of: session.userID, keeping: session.sessionID) }
    }

    // MARK: Helpers

    /// Checks a signed-in user's password under the sign-in failure limits (by username, or
    /// by id for an account without one, and by address). `password_not_set` for an account
    /// that has none.
    func verifyCurrentPassword(of userID: UserID, password: String, field: String,
                               clientAddress: String) async throws(ProtocolError) -> StoredUser {
        guard let user = try await read({ reader in try reader.user(id: userID) }) else {
            throw ProtocolError(.unauthorized, "the account no longer exists")
        }
        guard let hash = user.passwordHash else {
            throw ProtocolError(.passwordNotSet, "the account has no password; set one with a reset by SMS code", field: field)
        }
        let accountKey = user.username?.lowercased() ?? "id:\(user.id)"
        let started = clock()
        if let wait = loginFailuresByAccount.retryAfter(accountKey, now: started)
            ?? loginFailuresByAddress.retryAfter(clientAddress, now: started) {
            throw ProtocolError(.rateLimited, "too many failed sign-ins; wait before trying again", retryAfterSeconds: wait)
        }
        let matches = validator.rules.passwordBytes.contains(password.utf8.count)
            ? try await runBlocking { [passwords] in passwords.verify(password, against: hash) } : false
        guard matches else {
            loginFailuresByAccount.record(accountKey, now: started)
            loginFailuresByAddress.record(clientAddress, now: started)
            throw ProtocolError(.invalidCredentials, "wrong password", field: field)
        }
        return user
    }

    /// The argon2id hash and SCRAM credentials of a new password, computed off the loops.
    private func derivedSecrets(of password: String) async throws(ProtocolError) -> (String, [StoredSCRAMCredential]) {
        try await runBlocking { [passwords, scram] in
            (try passwords.hash(password), scram?.derive(password: password) ?? [])
        }
    }
}

/// What a password reset did: whose password changed and which sessions it signed out.
public struct PasswordResetOutcome: Sendable, Equatable {
    public var user: UserID
    public var revokedSessions: [String]
}
