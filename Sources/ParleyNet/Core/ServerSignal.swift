import CParleySystem

/// The signals a server acts on: SIGINT and SIGTERM (shut down) and SIGHUP (reload the TLS
/// certificate), delivered through a signalfd instead of an async handler, so the main
/// thread can wait for one and act on it in ordinary code.
public enum ServerSignal: Sendable, Equatable {
    /// SIGINT or SIGTERM, with its number.
    case shutdown(Int32)
    /// SIGHUP.
    case reload

    /// Blocks the server's signals (and SIGPIPE) in the calling thread and every thread it
    /// starts afterwards. Call first thing in `main`, before any thread exists.
    public static func blockInThisProcess() {
        _ = parley_block_signals()
    }

    /// Waits until one of the server's signals arrives.
    public static func wait() -> ServerSignal {
        let fd = parley_signalfd_for_server()
        guard fd >= 0 else { return .shutdown(-1) }
        defer { close(fd) }
        var info = signalfd_siginfo()
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, -1)
            let count = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
            guard count == MemoryLayout<signalfd_siginfo>.size else { continue }
            let number = Int32(info.ssi_signo)
            return number == SIGHUP ? .reload : .shutdown(number)
        }
    }
}
