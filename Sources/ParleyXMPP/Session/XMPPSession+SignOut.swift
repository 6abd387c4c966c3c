import ParleyCore

extension XMPPSession {
    /// A stream signs in with the password, not a stored session: it ends when the account's
    /// password-signed connections are closed (password changed or reset, other devices
    /// signed out, account deleted), with `not-authorized` so the client asks for the
    /// password again rather than reconnecting with the old one.
    nonisolated func signInEnded(_ sessionID: String) {
        guard sessionID == AuthenticatedSession.passwordSignIn else { return }
        loop.execute {
            self.assumeIsolated { $0.fail(.notAuthorized, "signed out: the password changed or the account was closed") }
        }
    }
}
