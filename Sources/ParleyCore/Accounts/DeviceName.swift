/// The name a session is listed under in the account's devices: the one the client sent,
/// else a short description made from its `User-Agent` ("Chrome on Linux", "parley-chat").
public enum DeviceName {
    /// The name to store: the client's own (trimmed, control characters removed, cut to
    /// `maxLength` characters), else the derived one; nil when there is nothing to go by.
    public static func resolve(given: String?, userAgent: String?, maxLength: Int) -> String? {
        if let given {
            let cleaned = String(String.UnicodeScalarView(given.unicodeScalars.filter { $0.properties.generalCategory != .control }))
                .trimmingSpaces
            if !cleaned.isEmpty { return String(String.UnicodeScalarView(cleaned.unicodeScalars.prefix(maxLength))) }
        }
        return userAgent.flatMap(derive(fromUserAgent:)).map { String($0.prefix(maxLength)) }
    }

    /// "<browser> on <system>" for a browser, the product token for anything else.
    public static func derive(fromUserAgent agent: String) -> String? {
        let browser = firstMatch(in: agent, of: browsers)
        let system = firstMatch(in: agent, of: systems)
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        default:
            // A client that is not a browser names itself first ("parley-chat", "ParleyKit/1.0").
            let product = agent.split(separator: " ").first.map { String($0.split(separator: "/").first ?? $0) } ?? ""
            guard !product.isEmpty, product != "Mozilla" else { return system }
            return system.map { "\(product) on \($0)" } ?? product
        }
    }

    /// Checked in order: Edge and Opera also say "Chrome", Chrome also says "Safari".
    private static let browsers: [(token: String, name: String)] = [
        ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"), ("CriOS/", "Chrome"), ("Safari/", "Safari"),
    ]

    /// Checked in order: Android also says "Linux", iOS also says "Mac OS X".
    private static let systems: [(token: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
        ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
    ]

    /// Every browser name the server may give a device (the clients word "<browser> on
    /// <system>" of these in the reader's language, and only these: ParleyKit's
    /// `DeviceNameText`, the web client's `resources.js`).
    public static var browserNames: Set<String> { Set(browsers.map(\.name)) }
    /// Every system name the server may give a device.
    public static var systemNames: Set<String> { Set(systems.map(\.name)) }

    private static func firstMatch(in agent: String, of table: [(token: String, name: String)]) -> String? {
        table.first { agent.contains($0.token) }?.name
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
