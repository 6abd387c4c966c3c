public import ParleyProtocol

/// Short-lived links to uploads that need no sign-in: `/v1/media/<id>?exp=<seconds>&sig=<hex>`,
/// where `sig` is HMAC-SHA256 over the id and the expiry with a key derived from the server's
/// secret (`server.secret`, the same on every node of a cluster). Whoever holds a link may
/// fetch the file until it expires; membership is checked when the link is minted
/// (`MediaAccess`), so the lifetime bounds how long a leaked link or a removed member's
/// copy keeps working.
public struct MediaURLSigner: Sendable {
    /// How long a new link stays valid, at least (seconds).
    public let lifetimeSeconds: Int
    /// HMAC-SHA256 with the server's key, supplied by the server (the core has no crypto).
    private let mac: @Sendable ([UInt8]) -> [UInt8]

    /// `mac` computes the keyed digest of its input; `lifetimeSeconds` is at least 1.
    public init(lifetimeSeconds: Int, mac: @escaping @Sendable ([UInt8]) -> [UInt8]) {
        self.lifetimeSeconds = max(1, lifetimeSeconds)
        self.mac = mac
    }

    /// The expiry (seconds since the epoch) of a link minted at `now` (milliseconds): at
    /// least `lifetimeSeconds` ahead, rounded up to a step of a quarter of the lifetime, so
    /// links minted close together are the same string and a browser's cache keeps working.
    public func expiry(now: Int64) -> Int64 {
        let step = Int64(max(1, lifetimeSeconds / 4))
        // Whole seconds after `now`, so a link is good for the whole lifetime at least.
        let earliest = (now + 999) / 1000 + Int64(lifetimeSeconds)
        return (earliest + step - 1) / step * step
    }

    /// A signed link to `mediaID`, minted at `now` (milliseconds).
    public func url(for mediaID: String, now: Int64) -> SignedMediaURL {
        let expires = expiry(now: now)
        let path = MediaReference.pathPrefix + mediaID + "?exp=\(expires)&sig=" + signature(mediaID: mediaID, expires: expires)
        return SignedMediaURL(mediaId: mediaID, url: path, expiresAt: expires * 1000)
    }

    /// The hex signature of `mediaID` valid until `expires` (seconds since the epoch).
    public func signature(mediaID: String, expires: Int64) -> String {
        // Ids are letters, digits, `-` and `_`, so the separator cannot be forged into one.
        let digest = mac(Array("parley-media-v1\n\(mediaID)\n\(expires)".utf8))
        return Self.hex(digest)
    }

    /// Accepts a link's query values for `mediaID` at `now` (milliseconds): `bad_signature`
    /// when the signature does not match the id and expiry (or either is missing or
    /// malformed), `url_expired` when it matches but its time is up. The signature is
    /// checked first, so a changed expiry is a bad signature, not a live link.
    public func verify(mediaID: String, expires: String?, signature: String?, now: Int64) throws(ProtocolError) {
        let refused = ProtocolError(.badSignature, "this media link is not valid: ask for a new one (media.url)")
        guard let expires, expires.utf8.count <= 19, let seconds = Int64(expires), let signature else { throw refused }
        guard Self.constantTimeEqual(Array(signature.utf8), Array(self.signature(mediaID: mediaID, expires: seconds).utf8)) else {
            throw refused
        }
        guard seconds * 1000 > now else {
            throw ProtocolError(.urlExpired, "this media link has expired: ask for a new one (media.url)")
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Compares without stopping at the first difference, so timing tells nothing of how
    /// much of a forged signature was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
