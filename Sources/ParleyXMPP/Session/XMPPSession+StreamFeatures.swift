import ParleyCore
import ParleyNet
import ParleyProtocol

// The stream header's answer: the features a stream is offered at each stage, and which SASL
// mechanisms.
extension XMPPSession {
    /// Answers a stream header with ours and the features of this stage.
    func openStream(_ attributes: [XMLAttribute], defaultNamespace: String) {
        sendHeader()
        let to = attributes.first { $0.name == "to" }?.value.lowercased()
        guard defaultNamespace == Namespace.client else {
            fail(.invalidNamespace, "the stream's default namespace must be jabber:client")
            return
        }
        guard let to, JID(to)?.domain == domain else {
            fail(.hostUnknown, "this server is \(domain)")
            return
        }
        guard let version = attributes.first(where: { $0.name == "version" })?.value, version.hasPrefix("1.") else {
            fail(.unsupportedVersion, "XMPP 1.0 streams only")
            return
        }
        state.phase = .negotiating
        let signedIn = state.account != nil
        let encrypted = state.encrypted
        let plaintextAllowed = isLoopback || services.configuration.allowPlaintext
        let offerTLS = services.configuration.tls != nil && !encrypted
        guard plaintextAllowed || encrypted || offerTLS else {
            fail(.policyViolation, "unencrypted streams are accepted only from this machine")
            return
        }
        var features = XMLElement("features", namespace: Namespace.streams)
        if signedIn {
            features.append(XMLElement("bind", namespace: Namespace.bind))
            features.append(XMLElement("session", namespace: Namespace.session, [:], children: [XMLElement("optional", namespace: Namespace.session)]))
            features.append(XMLElement("sm", namespace: Namespace.streamManagement))
            features.append(XMLElement("csi", namespace: Namespace.clientStateIndication))
        } else {
            if offerTLS {
                features.append(XMLElement("starttls", namespace: Namespace.tls, [:],
                                           children: plaintextAllowed ? [] : [XMLElement("required", namespace: Namespace.tls)]))
            }
            if plaintextAllowed || encrypted {
                var mechanisms = XMLElement("mechanisms", namespace: Namespace.sasl)
                for name in offeredMechanisms {
                    mechanisms.append(XMLElement("mechanism", namespace: Namespace.sasl, [:], text: name))
                }
                features.append(mechanisms)
            }
        }
        send(features)
    }

    /// Whether SASL may run now: on loopback, encrypted, or where plaintext is allowed.
    var saslAllowed: Bool {
        isLoopback || services.configuration.allowPlaintext || state.encrypted
    }

    /// SCRAM always; PLAIN only where the password cannot be overheard (loopback or TLS).
    var offeredMechanisms: [String] {
        SCRAMHash.allCases.reversed().map(\.mechanism) + (isLoopback || state.encrypted ? ["PLAIN"] : [])
    }
}
