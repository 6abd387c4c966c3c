import Glibc
import Testing
@testable import ParleyNet

/// A directory tree under /tmp for one test, removed when the test ends.
private final class TemporaryTree {
    let path: String
    private var created: [(path: String, isDirectory: Bool)] = []

    init() {
        var template = Array("/tmp/parley-static-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        path = made ?? "/nonexistent"
    }

    deinit {
        for item in created.reversed() {
            _ = item.isDirectory ? rmdir(item.path) : unlink(item.path)
        }
        rmdir(path)
    }

    func directory(_ name: String) {
        mkdir(path + "/" + name, 0o755)
        created.append((path + "/" + name, true))
    }

    func file(_ name: String, _ text: String) {
        let full = path + "/" + name
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if !created.contains(where: { $0.path == full }) { created.append((full, false)) }
    }

    func symlink(_ name: String, to target: String) {
        _ = Glibc.symlink(target, path + "/" + name)
        created.append((path + "/" + name, false))
    }

    /// Sets a file's modification time to `secondsAgo` in the past.
    func age(_ name: String, secondsAgo: Int) {
        let when = timespec(tv_sec: time(nil) - secondsAgo, tv_nsec: 0)
        let times = [when, when]
        _ = times.withUnsafeBufferPointer { utimensat(AT_FDCWD, path + "/" + name, $0.baseAddress, 0) }
    }
}

@Suite struct StaticFilesTests {
    /// root/ holds the site; outside/ holds a secret that no request may reach.
    private func makeSite() throws -> (TemporaryTree, StaticFiles) {
        let tree = TemporaryTree()
        tree.directory("root")
        tree.directory("root/sub")
        tree.directory("outside")
        tree.file("outside/secret.txt", "SECRET")
        tree.file("root/index.html", "<h1>home</h1>")
        tree.file("root/sub/index.html", "<h1>sub</h1>")
        tree.file("root/app.css", "body{}")
        tree.file("root/.env", "SECRET")
        tree.symlink("root/leak.txt", to: tree.path + "/outside/secret.txt")
        tree.symlink("root/leakdir", to: tree.path + "/outside")
        tree.symlink("root/style.css", to: "app.css")
        tree.directory("root/noindex")
        tree.symlink("root/noindex/index.html", to: tree.path + "/outside/secret.txt")
        return (tree, try StaticFiles(root: tree.path + "/root"))
    }

    private func get(_ files: StaticFiles, _ uri: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> HTTPResponse {
        files.response(for: HTTPRequestHead(method: method, uri: uri, headers: headers))
    }

    private func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body?.bytes ?? [], as: UTF8.self)
    }

    @Test func rootAndDirectoriesServeIndexHTML() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        let home = get(files, "/")
        #expect(home.status == .ok)
        #expect(text(home) == "<h1>home</h1>")
        #expect(home.headers[first: "Content-Type"] == "text/html; charset=utf-8")
        #expect(home.headers[first: "Cache-Control"] == "no-cache")
        #expect(home.headers[first: "X-Content-Type-Options"] == "nosniff")
        #expect(text(get(files, "/sub/")) == "<h1>sub</h1>")
        #expect(text(get(files, "/sub")) == "<h1>sub</h1>")
        #expect(text(get(files, "/index.html?v=1")) == "<h1>home</h1>")
        #expect(get(files, "/sub/index.html").status == .ok)
    }

    @Test func assetsGetTheirTypeAndCachePolicy() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        let css = get(files, "/app.css")
        #expect(css.status == .ok)
        #expect(text(css) == "body{}")
        #expect(css.headers[first: "Content-Type"] == "text/css; charset=utf-8")
        #expect(css.headers[first: "Cache-Control"] == "public, max-age=3600")
        // A symlink that stays inside the root is followed.
        #expect(text(get(files, "/style.css")) == "body{}")
    }

    @Test(arguments: [
        ("a.html", "text/html; charset=utf-8"), ("A.HTM", "text/html; charset=utf-8"),
        ("a.css", "text/css; charset=utf-8"), ("a.js", "text/javascript; charset=utf-8"),
        ("a.mjs", "text/javascript; charset=utf-8"), ("a.json", "application/json"),
        ("a.svg", "image/svg+xml"), ("a.png", "image/png"), ("a.jpg", "image/jpeg"),
        ("a.jpeg", "image/jpeg"), ("a.gif", "image/gif"), ("a.webp", "image/webp"),
        ("favicon.ico", "image/x-icon"), ("a.woff2", "font/woff2"),
        ("a.txt", "text/plain; charset=utf-8"), ("app.js.map", "application/json"),
        ("a.wasm", "application/wasm"), ("a.bin", "application/octet-stream"),
        ("noextension", "application/octet-stream"),
    ])
    func mimeTypes(_ name: String, _ type: String) throws {
        let tree = TemporaryTree()
        tree.file(name, "x")
        let files = try StaticFiles(root: tree.path)
        #expect(get(files, "/" + name).headers[first: "Content-Type"] == type)
    }

    @Test(arguments: [
        "/../outside/secret.txt",
        "/%2e%2e/outside/secret.txt",
        "/%2E%2E/outside/secret.txt",
        "/.%2E/outside/secret.txt",
        "/%2e./outside/secret.txt",
        "/sub/../../outside/secret.txt",
        "/sub/%2e%2e/%2e%2e/outside/secret.txt",
        "/..%2Foutside%2Fsecret.txt",
        "/sub%2Findex.html",
        "/sub%2findex.html",
        "/..\\outside\\secret.txt",
        "/sub\\index.html",
        "/%5C..%5Coutside",
        "/index.html%00.png",
        "/%00",
        "/.env",
        "/%2eenv",
        "/./index.html",
        "/leak.txt",
        "/leakdir/secret.txt",
        "/leakdir/",
        "/noindex/",
        "/missing.html",
        "/sub/missing",
        "/%zz",
        "/%C3%28",
        "relative",
    ])
    func refusalsAre404WithoutTheSecret(_ uri: String) throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        let response = get(files, uri)
        #expect(response.status == .notFound, "\(uri)")
        #expect(!text(response).contains("SECRET"))
        #expect(get(files, uri, method: .head).status == .notFound)
    }

    @Test func onlyGetAndHead() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        for method in [HTTPMethod.post, .put, .delete, .options] {
            let response = get(files, "/app.css", method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[first: "Allow"] == "GET, HEAD")
        }
    }

    @Test func headHasTheLengthButNoBody() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        let response = get(files, "/app.css", method: .head)
        #expect(response.status == .ok)
        #expect(response.body == nil)
        #expect(response.headers[first: "Content-Length"] == "6")
        #expect(response.headers[first: "Content-Type"] == "text/css; charset=utf-8")
        #expect(response.headers[first: "ETag"] == get(files, "/app.css").headers[first: "ETag"])
        let head = String(decoding: HTTPResponseEncoder.encodeHead(response, keepAlive: true, headRequest: true), as: UTF8.self)
        #expect(head.contains("\r\nContent-Length: 6\r\n"))
    }

    @Test func etagAndIfNoneMatch() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        let first = get(files, "/app.css")
        let etag = try #require(first.headers[first: "ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        for condition in [etag, "W/" + etag, "\"other\", " + etag, "*"] {
            let response = get(files, "/app.css", headers: ["If-None-Match": condition])
            #expect(response.status == .notModified, "\(condition)")
            #expect(response.body == nil)
            #expect(response.headers[first: "ETag"] == etag)
            #expect(response.headers[first: "Cache-Control"] == "public, max-age=3600")
        }
        #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\""]).status == .ok)
        #expect(get(files, "/", headers: ["If-None-Match": etag]).status == .ok)
    }

    @Test func etagChangesWhenTheFileDoes() throws {
        let (tree, files) = try makeSite()
        let before = get(files, "/app.css").headers[first: "ETag"]
        tree.file("root/app.css", "body{color:red}")
        let after = get(files, "/app.css")
        #expect(after.headers[first: "ETag"] != before)
        #expect(text(after) == "body{color:red}")
    }

    @Test func settledSmallFilesAreCachedAndRereadWhenChanged() throws {
        let (tree, files) = try makeSite()
        tree.age("root/app.css", secondsAgo: 100)
        let first = get(files, "/app.css")
        #expect(files.cache.count == 1)
        let second = get(files, "/app.css")
        #expect(second.body === first.body)
        // Same size, different content and mtime: the ETag differs, so the cache misses.
        tree.file("root/app.css", "body{}".uppercased())
        tree.age("root/app.css", secondsAgo: 50)
        let third = get(files, "/app.css")
        #expect(text(third) == "BODY{}")
        #expect(third.headers[first: "ETag"] != first.headers[first: "ETag"])
    }

    @Test func freshlyWrittenFilesAreNotCached() throws {
        let (tree, files) = try makeSite()
        defer { withExtendedLifetime(tree) {} }
        _ = get(files, "/app.css")
        #expect(files.cache.count == 0)
    }

    @Test func filesOverTheSizeLimitAre500() throws {
        let tree = TemporaryTree()
        tree.file("four.txt", "1234")
        tree.file("five.txt", "12345")
        let files = try StaticFiles(root: tree.path, maxFileSize: 4)
        #expect(text(get(files, "/four.txt")) == "1234")
        let response = get(files, "/five.txt")
        #expect(response.status == .internalServerError)
        #expect(text(response) == "file_too_large\n")
    }

    @Test func cacheControlIsConfigurable() throws {
        let tree = TemporaryTree()
        tree.file("index.html", "x")
        tree.file("a.js", "y")
        let files = try StaticFiles(root: tree.path, htmlCacheControl: "no-store", assetCacheControl: "max-age=60")
        #expect(get(files, "/").headers[first: "Cache-Control"] == "no-store")
        #expect(get(files, "/a.js").headers[first: "Cache-Control"] == "max-age=60")
    }

    @Test func rootMustBeADirectory() {
        let tree = TemporaryTree()
        tree.file("plain", "x")
        #expect(throws: SystemError.self) { try StaticFiles(root: tree.path + "/missing") }
        #expect(throws: SystemError.self) { try StaticFiles(root: tree.path + "/plain") }
    }
}
