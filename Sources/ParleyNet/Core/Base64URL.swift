/// Base64 with the URL and file name safe alphabet and no padding (RFC 4648 §5), as JOSE
/// (RFC 7515) and Web Push keys use it.
public enum Base64URL {
    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text = Base64.encode(bytes)
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes of base64url `text`, padded or not; nil when it is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.last == "=" { standard.removeLast() }
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Base64.decode(standard)
    }
}
