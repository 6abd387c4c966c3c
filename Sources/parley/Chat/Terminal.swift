import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal in raw mode on the alternate screen. The original settings are
/// put back in `restore()` (and in `deinit`), so the shell is never left without echo.
final class Terminal {
    private var original = termios()
    private var active = false

    /// Whether both standard input and output are terminals.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Switches to raw mode and the alternate screen.
    init() throws {
        guard tcgetattr(0, &original) == 0 else { throw ChatFailure("standard input is not a terminal") }
        var raw = original
        // No echo, no line editing, no signals from keys (Ctrl-C arrives as a byte, handled as
        // "quit"), no flow control or CR translation; one byte is enough for a read.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else { throw ChatFailure("cannot put the terminal in raw mode") }
        active = true
        // Alternate screen, hidden cursor, cleared screen.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    deinit {
        restore()
    }

    /// Leaves the alternate screen and puts the original settings back. Safe to call twice.
    func restore() {
        guard active else { return }
        active = false
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(0, TCSAFLUSH, &original)
    }

    /// The window size in columns and rows (80×24 if the terminal does not say).
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Writes all of `text` to standard output.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

/// A reason `parley chat` cannot go on.
struct ChatFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
