import Glibc

/// Process-wide settings every bench process makes before it starts threads.
enum ProcessSetup {
    /// A peer that resets a connection must turn a write into `EPIPE`, not kill the process.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Raises the soft descriptor limit to the hard one (20,000 on the build machines) and
    /// returns the result: every connection costs a descriptor.
    @discardableResult
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resource, &limit)
            _ = getrlimit(resource, &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Blocks SIGINT and SIGTERM in this thread and the threads it starts, so that
    /// `waitForShutdownSignal` can take them in ordinary code. Call before creating threads.
    static func blockShutdownSignals() {
        var set = shutdownSignals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Makes SIGINT and SIGTERM end the process again, whatever mask it inherited.
    static func unblockShutdownSignals() {
        var set = shutdownSignals()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits for SIGINT or SIGTERM (blocked before by `blockShutdownSignals`); returns it.
    static func waitForShutdownSignal() -> Int32 {
        var set = shutdownSignals()
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Sleeps the calling thread (never an event loop).
    static func sleep(milliseconds: Int) {
        usleep(UInt32(max(0, milliseconds)) * 1000)
    }

    private static func shutdownSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
