import CParleySystem
import Glibc

/// Serves the files under a web root: the web client's HTML, scripts, styles and images.
///
/// `response(for:)` blocks on the file system, so callers run it off the event loop.
///
/// Refusals are 404, never 403, so that a client cannot tell a forbidden path from a
/// missing one: NUL bytes, malformed escapes, `.` or `..` segments (also encoded, as
/// `%2e%2e` or `.%2E`), an encoded `/` (`%2F`) or a backslash inside a segment, names
/// starting with `.` (hidden files such as `.git`), anything that is not a regular file,
/// and paths that `realpath` resolves outside the root (a symlink leading out, including
/// through a parent directory, which `O_NOFOLLOW` alone would not catch). Symlinks that
/// stay inside the root are followed.
///
/// A file larger than `maxFileSize` is answered with 500 `file_too_large`: the root holds
/// files the operator put there, so such a file is a deployment mistake to surface, not a
/// client error. Directories serve their `index.html`.
public final class StaticFiles: Sendable {
    /// The web root, as `realpath` resolved it when the server started.
    public let root: String
    /// `Cache-Control` for HTML pages: revalidated each time, so a deploy shows at once.
    public let htmlCacheControl: String
    /// `Cache-Control` for every other file.
    public let assetCacheControl: String
    /// The largest file served.
    public let maxFileSize: Int

    let cache: StaticFileCache
    /// `root` followed by `/`, to test whether a resolved path lies inside it.
    let rootPrefix: String

    /// Creates a server for the files under `root`.
    ///
    /// - Parameters:
    ///   - root: the web root directory; it must exist.
    ///   - htmlCacheControl: `Cache-Control` for HTML pages.
    ///   - assetCacheControl: `Cache-Control` for other files.
    ///   - maxFileSize: the largest file served, in bytes (default 32 MiB).
    ///   - memoryCacheBytes: how many bytes of small files to keep in memory (0: none).
    ///   - maxCachedFileBytes: the largest file kept in memory.
    /// - Throws: `SystemError` if `root` cannot be resolved or is not a directory.
    public init(
        root: String,
        htmlCacheControl: String = "no-cache",
        assetCacheControl: String = "public, max-age=3600",
        maxFileSize: Int = 32 * 1024 * 1024,
        memoryCacheBytes: Int = 8 * 1024 * 1024,
        maxCachedFileBytes: Int = 256 * 1024
    ) throws(SystemError) {
        guard let resolved = Self.realPath(root) else {
            throw SystemError(call: "realpath", errno: parley_errno())
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else { throw SystemError(call: "stat", errno: parley_errno()) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError(call: "stat", errno: ENOTDIR) }
        self.root = resolved
        self.rootPrefix = resolved == "/" ? "/" : resolved + "/"
        self.htmlCacheControl = htmlCacheControl
        self.assetCacheControl = assetCacheControl
        self.maxFileSize = maxFileSize
        self.cache = StaticFileCache(capacity: memoryCacheBytes, maxFileBytes: maxCachedFileBytes)
    }

    /// The response for a request: the file, 304, or a refusal. For HEAD the response has
    /// no body but a `Content-Length` header with the file size; encode it with
    /// `HTTPResponseEncoder.encodeHead(_:keepAlive:headRequest: true)`.
    public func response(for head: HTTPRequestHead) -> HTTPResponse {
        guard head.method == .get || head.method == .head else {
            return Self.refusal(.methodNotAllowed, "method_not_allowed", extra: ["Allow": "GET, HEAD"])
        }
        guard let relative = Self.relativePath(head.path),
              var path = resolveInsideRoot(relative.isEmpty ? root : rootPrefix + relative) else {
            return Self.notFound
        }
        var file = OpenFile(path: path)
        if case .directory = file.kind {
            // The index could itself be a symlink leading out: resolve and check it too.
            guard let index = resolveInsideRoot(path == "/" ? "/index.html" : path + "/index.html") else {
                return Self.notFound
            }
            path = index
            file = OpenFile(path: path)
        }
        let info: stat
        switch file.kind {
        case .regular(let value): info = value
        case .missing, .directory, .other: return Self.notFound
        case .failed: return Self.refusal(.internalServerError, "file_error")
        }
        let size = Int(info.st_size)
        guard size <= maxFileSize else {
            return Self.refusal(.internalServerError, "file_too_large")
        }

        let etag = Self.etag(info)
        let contentType = MIMEType.forFileName(path)
        var headers: HTTPHeaders = [
            "ETag": etag,
            "Cache-Control": MIMEType.isHTML(contentType) ? htmlCacheControl : assetCacheControl,
            "X-Content-Type-Options": "nosniff",
        ]
        if let condition = head.headers[first: "If-None-Match"], Self.matches(condition, etag: etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: contentType)
        if head.method == .head {
            headers.add(name: "Content-Length", value: String(size))
            return HTTPResponse(status: .ok, headers: headers)
        }
        if let chunk = cache.chunk(path: path, etag: etag) {
            return HTTPResponse(status: .ok, headers: headers, body: chunk)
        }
        let chunk: ByteChunk
        do {
            chunk = try file.read(size: size)
        } catch {
            return Self.refusal(.internalServerError, "file_error")
        }
        // A file written to in the last seconds may change again within the mtime's
        // granularity without its ETag changing; do not pin such a version in memory.
        if chunk.count == size, Int(time(nil)) - Int(info.st_mtim.tv_sec) >= 2 {
            cache.store(path: path, etag: etag, chunk: chunk)
        }
        return HTTPResponse(status: .ok, headers: headers, body: chunk)
    }

    private static let notFound = refusal(.notFound, "not_found")

    private static func refusal(_ status: HTTPStatus, _ reason: String, extra: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = extra
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Cache-Control", value: "no-store")
        return HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: reason + "\n", headers: headers)
    }
}
