import Glibc

/// Unbuffered output. Workers and the echo server are read through pipes by a parent
/// process that waits for their lines, so nothing may sit in a stdio buffer.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    private static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // the reader went away; there is no one left to tell
            }
            offset += written
        }
    }
}
