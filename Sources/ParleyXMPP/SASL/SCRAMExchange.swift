import ParleyNet

/// The server's side of one SCRAM exchange (RFC 5802): the client's first message, the
/// server's challenge, then the client's proof checked against the stored keys. Channel
/// binding (the -PLUS variants) is not offered, so a client asking for it is refused.
public struct SCRAMExchange: Sendable {
    /// The parts of the client's first message.
    public struct ClientFirst: Sendable, Equatable {
        /// `n,,` or `y,,` (or with an authzid): echoed back, base64, in the final message.
        public var gs2Header: String
        /// The message without the GS2 header; part of the signed AuthMessage.
        public var bare: String
        /// The user name, with SCRAM's `=2C` and `=3D` decoded.
        public var username: String
        public var clientNonce: String
    }

    public let hash: SCRAMHash
    public let clientFirst: ClientFirst
    /// The server's first message: combined nonce, salt and iteration count.
    public let serverFirst: String
    let nonce: String

    /// Parses the client's first message.
    public static func parseClientFirst(_ message: String) throws(SASLFailure) -> ClientFirst {
        let malformed = SASLFailure(.malformedRequest, "not a SCRAM client-first-message")
        let parts = message.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw malformed }
        switch parts[0] {
        case "n", "y": break
        case let flag where flag.hasPrefix("p="):
            throw SASLFailure(.malformedRequest, "channel binding is not supported; use a mechanism without -PLUS")
        default: throw malformed
        }
        let bare = String(parts[2])
        var username: String?
        var nonce: String?
        for (index, attribute) in bare.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            if index == 0 && attribute.hasPrefix("m=") {
                throw SASLFailure(.malformedRequest, "no SCRAM extensions are supported")
            }
            if attribute.hasPrefix("n=") { username = try decodeName(attribute.dropFirst(2)) }
            if attribute.hasPrefix("r=") { nonce = String(attribute.dropFirst(2)) }
        }
        guard let username, !username.isEmpty, let nonce, !nonce.isEmpty,
              nonce.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: ",") }) else { throw malformed }
        if parts[1].hasPrefix("a=") {
            guard try decodeName(parts[1].dropFirst(2)) == username else {
                throw SASLFailure(.invalidAuthzid, "you may act only as yourself")
            }
        } else if !parts[1].isEmpty {
            throw malformed
        }
        return ClientFirst(gs2Header: "\(parts[0]),\(parts[1]),", bare: bare, username: username, clientNonce: nonce)
    }

    /// `saslname`: `=2C` is a comma, `=3D` an equals sign, any other `=` is an error.
    private static func decodeName(_ raw: Substring) throws(SASLFailure) -> String {
        var out = ""
        var rest = raw[...]
        while let mark = rest.firstIndex(of: "=") {
            out += rest[..<mark]
            let code = rest[mark...].prefix(3)
            switch code {
            case "=2C": out += ","
            case "=3D": out += "="
            default: throw SASLFailure(.malformedRequest, "a SCRAM name escapes only ',' and '='")
            }
            rest = rest[rest.index(mark, offsetBy: 3)...]
        }
        return out + rest
    }

    /// Starts the exchange: the challenge for `clientFirst` with the stored salt and count.
    /// `serverNonce` is random in use; fixed only to check published test vectors.
    public init(hash: SCRAMHash, clientFirst: ClientFirst, salt: [UInt8], iterations: Int,
                serverNonce: String? = nil) {
        self.hash = hash
        self.clientFirst = clientFirst
        nonce = clientFirst.clientNonce + (serverNonce ?? Base64.encode(CryptoRandom.bytes(18)))
        serverFirst = "r=\(nonce),s=\(Base64.encode(salt)),i=\(iterations)"
    }

    /// Checks the client's final message against the stored keys; returns the server's final
    /// message (its signature, which proves the server knew the keys too).
    public func finish(_ clientFinal: String, storedKey: [UInt8], serverKey: [UInt8]) throws(SASLFailure) -> String {
        // The proof is the last attribute; everything before it is signed.
        guard let comma = clientFinal.lastIndex(of: ","), clientFinal[comma...].hasPrefix(",p=") else {
            throw SASLFailure(.malformedRequest, "not a SCRAM client-final-message")
        }
        let withoutProof = String(clientFinal[..<comma])
        guard let proof = Base64.decode(clientFinal[clientFinal.index(comma, offsetBy: 3)...]), proof.count == hash.size else {
            throw SASLFailure(.malformedRequest, "the proof is not a base64 \(hash.size)-byte value")
        }
        let attributes = withoutProof.split(separator: ",", omittingEmptySubsequences: false)
        guard attributes.count >= 2, attributes[0] == "c=" + Base64.encode(Array(clientFirst.gs2Header.utf8)) else {
            throw SASLFailure(.malformedRequest, "the channel binding does not match the first message")
        }
        guard attributes[1] == "r=" + nonce else {
            throw SASLFailure(.malformedRequest, "the nonce does not match")
        }
        let authMessage = Array((clientFirst.bare + "," + serverFirst + "," + withoutProof).utf8)
        let clientSignature = hash.hmac(key: storedKey, authMessage)
        let clientKey = zip(proof, clientSignature).map { $0 ^ $1 }
        guard CryptoRandom.equal(hash.digest(clientKey), storedKey) else {
            throw SASLFailure(.notAuthorized, "wrong username or password")
        }
        return "v=" + Base64.encode(hash.hmac(key: serverKey, authMessage))
    }
}
