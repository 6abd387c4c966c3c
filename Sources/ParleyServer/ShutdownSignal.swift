import CParleySystem

/// SIGINT and SIGTERM, delivered through a signalfd instead of an async handler, so the
/// main thread can wait for one and start a graceful shutdown in ordinary code.
public enum ShutdownSignal {
    /// Blocks the shutdown signals (and SIGPIPE) in the calling thread and every thread it
    /// starts afterwards. Call first thing in `main`, before any thread exists.
    public static func blockInThisProcess() {
        _ = parley_block_signals()
    }

    /// Waits until SIGINT or SIGTERM arrives; returns its number.
    public static func wait() -> Int32 {
        let fd = parley_signalfd_for_shutdown()
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        var info = signalfd_siginfo()
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, -1)
            let count = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
            if count == MemoryLayout<signalfd_siginfo>.size { return Int32(info.ssi_signo) }
        }
    }
}
