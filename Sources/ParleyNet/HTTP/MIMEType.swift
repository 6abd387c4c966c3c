/// Content types for the files a web client is made of, by file extension.
enum MIMEType {
    /// The fallback: browsers will not try to render or run it.
    static let octetStream = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        // JSON is UTF-8 by definition (RFC 8259) and its media type has no charset parameter.
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        "wasm": "application/wasm",
    ]

    /// The content type for a file name, from its extension (case-insensitive).
    static func forFileName(_ name: some StringProtocol) -> String {
        guard let dot = name.lastIndex(of: ".") else { return octetStream }
        let ext = name[name.index(after: dot)...].lowercasedASCII()
        return byExtension[ext] ?? octetStream
    }

    /// Whether the type is an HTML page (which gets its own cache policy).
    static func isHTML(_ type: String) -> Bool {
        type.hasPrefix("text/html")
    }
}
