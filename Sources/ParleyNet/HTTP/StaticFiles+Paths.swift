import CParleySystem
import Glibc

extension StaticFiles {
    /// The request path as a relative file path (`""` for the root), or nil if any segment
    /// is refused. Empty segments (`//`, a trailing `/`) are skipped.
    static func relativePath(_ path: Substring) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var parts: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) where !raw.isEmpty {
            // Decoding rejects NUL and malformed escapes; checking after decoding catches
            // `%2e%2e`, `.%2E`, `%2F` and `%5C` as well as their plain forms.
            guard let segment = PercentDecoding.decodePathSegment(raw),
                  !segment.hasPrefix("."),
                  !segment.utf8.contains(UInt8(ascii: "/")),
                  !segment.utf8.contains(UInt8(ascii: "\\")) else { return nil }
            parts.append(segment)
        }
        return parts.joined(separator: "/")
    }

    /// `path` with every symlink resolved, if it exists and lies inside the root.
    func resolveInsideRoot(_ path: String) -> String? {
        guard let resolved = Self.realPath(path) else { return nil }
        guard resolved == root || resolved.hasPrefix(rootPrefix) else { return nil }
        return resolved
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A strong validator that changes when the file is rewritten (mtime, size) or replaced
    /// (inode), without hashing the content.
    static func etag(_ info: stat) -> String {
        let size = String(UInt64(info.st_size), radix: 16)
        let seconds = String(UInt64(bitPattern: Int64(info.st_mtim.tv_sec)), radix: 16)
        let nanoseconds = String(UInt64(info.st_mtim.tv_nsec), radix: 16)
        let inode = String(UInt64(info.st_ino), radix: 16)
        return "\"\(size)-\(seconds).\(nanoseconds)-\(inode)\""
    }

    /// Whether an `If-None-Match` value names `etag`. RFC 9110 §13.1.2 compares weakly
    /// here, so a `W/` prefix is ignored; `*` matches any existing file.
    static func matches(_ condition: String, etag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = candidate.trimmingSpaces()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
