import ParleyCore
import ParleyNet
import ParleyProtocol

extension XMPPServices {
    /// An `iq` set with `payload` pushed to every stream of the user, the one that caused it
    /// included, on this server or any other of a cluster: roster pushes (RFC 6121 §2.1.6),
    /// block and unblock pushes (XEP-0191 §3.3, §3.4).
    func push(_ payload: XMLElement, to me: XMPPIdentity) {
        registry.forward(ForwardedStanza(stanza: "iq", type: "set", id: "push-" + Base64.encode(CryptoRandom.bytes(6)),
                                         from: me.bare.description, children: payload.serialized()),
                         to: [me.user], excluding: nil)
    }
}
