import ParleyCore
import ParleyProtocol

/// In-band registration (XEP-0077) for a signed-in account: what the account is (`get`), a
/// password change (`<username/><password/>`) and account removal (`<remove/>`), mapped onto
/// the same core operations as `POST /v1/me/password` and `DELETE /v1/me`. New accounts are
/// not registered over XMPP (the stream is signed in first). The stream signed in with the
/// password, which the protocol takes as proof enough (§3.2, §3.3).
struct RegisterHandler: XMPPHandler {
    static let namespace = Namespace.register

    var payloads: [XMPPPayload] { [XMPPPayload(Self.namespace, "query")] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toServer else { throw request.unsupported }
        let services = context.services
        let user = request.me.user
        if request.type == "get" {
            let account = try await services.accounts.account(of: user)
            return XMLElement("query", namespace: Self.namespace, [:], children: [
                XMLElement("registered", namespace: Self.namespace),
                XMLElement("username", namespace: Self.namespace, [:], text: account.profile.username ?? request.me.bare.local ?? ""),
                XMLElement("password", namespace: Self.namespace),
            ])
        }
        guard request.type == "set" else { throw request.unsupported }
        if request.query.child("remove", namespace: Self.namespace) != nil {
            guard let deletion = services.deletion else { throw StanzaError.serviceUnavailable("account removal is not offered here") }
            let ended = try await deletion.deleteSignedInStream(of: user)
            // The result goes out first; this stream and every other connection then close.
            for id in ended + [AuthenticatedSession.passwordSignIn] {
                services.registry.closeConnections(of: user, signedInWith: id)
            }
            return nil
        }
        guard let password = request.query.child("password", namespace: Self.namespace)?.text, !password.isEmpty else {
            throw StanzaError.badRequest("send <password/> with the new password, or <remove/>")
        }
        if let name = request.query.child("username", namespace: Self.namespace)?.text, !name.isEmpty,
           name.lowercased() != (request.me.bare.local ?? "").lowercased() {
            throw StanzaError.badRequest("the username is the signed-in account's")
        }
        let revoked = try await services.accounts.changePasswordOfSignedInStream(of: user, new: password)
        // Stored sessions (web, apps) are signed out; Jabber streams, this one included, stay.
        for id in revoked { services.registry.closeConnections(of: user, signedInWith: id) }
        return nil
    }
}
