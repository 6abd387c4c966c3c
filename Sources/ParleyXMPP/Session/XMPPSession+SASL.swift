import ParleyCore
import ParleyNet
import ParleyProtocol

// Signing in (SASL, RFC 6120 §6) and binding a resource (§7).
extension XMPPSession {
    /// A stanza that came in some stage before binding.
    func negotiate(_ stanza: XMLElement, step: SASLStep?) async {
        let account = state.account
        if let account {
            if stanza.namespace == Namespace.streamManagement && stanza.name == "resume" {
                await resume(stanza, account: account)
            } else if stanza.namespace == Namespace.streamManagement {
                send(XMLElement("failed", namespace: Namespace.streamManagement, [:], children: [
                    XMLElement("unexpected-request", namespace: Namespace.stanzaErrors),
                ]))
            } else {
                await bind(stanza, account: account)
            }
            return
        }
        if stanza.namespace == Namespace.tls, stanza.name == "starttls", step == nil {
            guard services.configuration.tls != nil, !state.encrypted else {
                send(XMLElement("failure", namespace: Namespace.tls))
                fail(.policyViolation, "STARTTLS is not available here")
                return
            }
            startTLS()
            return
        }
        guard stanza.namespace == Namespace.sasl else {
            fail(.notAuthorized, "sign in first")
            return
        }
        guard saslAllowed else {
            saslFailed(SASLFailure(.encryptionRequired, "start TLS first"))
            return
        }
        switch (stanza.name, step) {
        case ("auth", nil):
            await startSASL(stanza)
        case ("abort", _):
            saslFailed(SASLFailure(.aborted, "aborted"))
        case ("response", .awaitingInitialResponse(let mechanism)?):
            await run(mechanism, initialResponse: stanza.text)
        case ("response", .scram(let exchange, let candidate)?):
            finishSCRAM(exchange, candidate, response: stanza.text)
        default:
            saslFailed(SASLFailure(.malformedRequest, "unexpected <\(stanza.name)> here"))
        }
    }

    private func startSASL(_ auth: XMLElement) async {
        let mechanism = auth["mechanism"] ?? ""
        guard offeredMechanisms.contains(mechanism) else {
            let failure = mechanism == "PLAIN" ? SASLFailure(.encryptionRequired, "PLAIN is offered only where the password cannot be overheard")
                                               : SASLFailure(.invalidMechanism, "use one of \(offeredMechanisms.joined(separator: ", "))")
            saslFailed(failure)
            return
        }
        let initial = auth.text.trimmingWhitespace
        if initial.isEmpty {
            state.phase = .sasl(.awaitingInitialResponse(mechanism: mechanism))
            send(XMLElement("challenge", namespace: Namespace.sasl))
            return
        }
        await run(mechanism, initialResponse: initial)
    }

    /// `=` is an empty response; anything else is base64.
    private func decode(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingWhitespace
        return trimmed == "=" ? [] : Base64.decode(trimmed)
    }

    private func run(_ mechanism: String, initialResponse: String) async {
        guard let message = decode(initialResponse) else {
            saslFailed(SASLFailure(.incorrectEncoding, "the response is not base64"))
            return
        }
        if mechanism == "PLAIN" {
            await plain(message)
            return
        }
        guard let hash = SCRAMHash(rawValue: mechanism) else {
            saslFailed(SASLFailure(.invalidMechanism, "unknown mechanism"))
            return
        }
        do throws(SASLFailure) {
            let first = try SCRAMExchange.parseClientFirst(String(decoding: message, as: UTF8.self))
            let candidate: SCRAMCandidate?
            do throws(ProtocolError) {
                candidate = try await services.accounts.scramCredential(username: first.username, mechanism: mechanism,
                                                                        clientAddress: clientAddress)
            } catch {
                throw SASLFailure(error.code == .rateLimited ? .temporaryAuthFailure : .notAuthorized, error.message)
            }
            // An unknown user gets a challenge like anyone else's, the same every time, and
            // fails at the proof (counted as a wrong password).
            let exchange = SCRAMExchange(hash: hash, clientFirst: first,
                                         salt: candidate?.credential.salt
                                            ?? SCRAMCredentialDeriver.decoySalt(for: first.username, mechanism: mechanism,
                                                                                secret: services.configuration.decoySecret),
                                         iterations: candidate?.credential.iterations ?? SCRAMCredentialDeriver.defaultIterations)
            state.phase = .sasl(.scram(exchange, candidate))
            send(XMLElement("challenge", namespace: Namespace.sasl, [:], text: Base64.encode(Array(exchange.serverFirst.utf8))))
        } catch {
            saslFailed(error)
        }
    }

    private func finishSCRAM(_ exchange: SCRAMExchange, _ candidate: SCRAMCandidate?, response: String) {
        guard let message = decode(response) else {
            saslFailed(SASLFailure(.incorrectEncoding, "the response is not base64"))
            return
        }
        let keys = candidate?.credential
        do throws(SASLFailure) {
            let serverFinal = try exchange.finish(String(decoding: message, as: UTF8.self),
                                                  storedKey: keys?.storedKey ?? CryptoRandom.bytes(exchange.hash.size),
                                                  serverKey: keys?.serverKey ?? [])
            guard let candidate else { throw SASLFailure(.notAuthorized, "wrong username or password") }
            // Only now, with the password proved, may the stream hear why it is refused.
            if let refusal = candidate.refusal {
                saslFailed(SASLFailure(.notAuthorized, refusal.message))
                return
            }
            succeed(candidate.account, additionalData: Base64.encode(Array(serverFinal.utf8)))
        } catch {
            if error.condition == .notAuthorized {
                services.accounts.recordFailedSignIn(username: exchange.clientFirst.username, clientAddress: clientAddress)
            }
            saslFailed(error)
        }
    }

    private func plain(_ message: [UInt8]) async {
        do throws(SASLFailure) {
            let credentials = try SASLPlain(message, domain: domain)
            do throws(ProtocolError) {
                let account = try await services.accounts.checkPassword(username: credentials.username, password: credentials.password,
                                                                        clientAddress: clientAddress)
                succeed(account, additionalData: nil)
            } catch {
                throw SASLFailure(error.code == .rateLimited ? .temporaryAuthFailure : .notAuthorized, error.message)
            }
        } catch {
            saslFailed(error)
        }
    }

    private func succeed(_ account: Account, additionalData: String?) {
        state.account = account
        state.phase = .awaitingStream
        services.logger.info("xmpp sign-in", ["user": .int(Int(account.profile.id.rawValue)), "address": .string(clientAddress)])
        sendAndRestart(XMLElement("success", namespace: Namespace.sasl, [:], text: additionalData))
    }

    private func saslFailed(_ failure: SASLFailure) {
        state.phase = .negotiating
        if failure.condition != .aborted { state.saslFailures += 1 }
        let failures = state.saslFailures
        send(XMLElement("failure", namespace: Namespace.sasl, [:], children: [
            XMLElement(failure.condition.rawValue, namespace: Namespace.sasl),
            XMLElement("text", namespace: Namespace.sasl, [:], text: failure.text),
        ]))
        if failures >= services.configuration.maxAuthFailures {
            fail(.policyViolation, "too many failed sign-in attempts on this connection")
        }
    }

    // MARK: Binding

    private func bind(_ stanza: XMLElement, account: Account) async {
        guard stanza.name == "iq", stanza.namespace == Namespace.client, let id = stanza["id"] else {
            fail(.notAuthorized, "bind a resource first")
            return
        }
        if stanza.child("session", namespace: Namespace.session) != nil {
            send(XMLElement("iq", ["type": "result", "id": id]))
            return
        }
        guard stanza["type"] == "set", let request = stanza.child("bind", namespace: Namespace.bind) else {
            send(StanzaError(type: "cancel", condition: "not-allowed", "bind a resource first").reply(to: stanza, from: domain))
            return
        }
        var resource = request.child("resource")?.text.trimmingWhitespace ?? ""
        if !JID.isValidResource(resource) {
            resource = "parley-" + Base64.encode(CryptoRandom.bytes(6)).filter { $0.isLetter || $0.isNumber }
        }
        let user = account.profile.id
        // What events need to be rendered is loaded before the hub starts sending them.
        let friends = (try? await services.social.allFriends(of: user)) ?? []
        for friend in friends { services.directory.remember(friend.user) }
        resource = services.resources.bind(user, requested: resource, token: token)
        let jid = JID(local: XMPPDirectory.localPart(of: account.profile), domain: domain, resource: resource)
        state.resource = resource
        state.phase = .bound
        state.registered = true
        for friend in friends {
            state.directPeers[friend.conversationId] = friend.user.id
            state.localParts[friend.user.id] = XMPPDirectory.localPart(of: friend.user)
        }
        cancelSignInDeadline()
        send(XMLElement("iq", ["type": "result", "id": id], children: [
            XMLElement("bind", namespace: Namespace.bind, [:], children: [XMLElement("jid", namespace: Namespace.bind, [:], text: jid.description)]),
        ]))
        let first = services.registry.add(self, for: user)
        // Closed meanwhile (while the friends were read): the close removed nothing then.
        if case .closed = state.phase {
            if services.registry.remove(self, for: user) { await services.presence.wentOffline(user) }
            return
        }
        if first { await services.presence.cameOnline(user) }
    }
}

extension String {
    var trimmingWhitespace: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
