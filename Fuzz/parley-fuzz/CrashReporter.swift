#if !FUZZING
import Glibc

/// Names the input being replayed when a harness crashes instead of throwing (a trap, a
/// bad access): the runtime's crash report says where in the code, this says which file.
///
/// The handler writes one line, puts back the handler it displaced and returns, so the
/// faulting instruction runs again and the usual crash report and exit status follow.
/// Replay is single-threaded and the state is written before each input, outside any
/// handler, so plain globals suffice.
enum CrashReporter {
    private static let signals: [CInt] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]
    nonisolated(unsafe) private static var line: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var lineLength = 0
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>?

    /// Records the input about to run (nil when done), installing the handler once.
    static func current(_ path: String?) {
        free(line)
        line = path.flatMap { strdup("parley-fuzz: crashed on input \($0)\n") }
        lineLength = line.map { strlen($0) } ?? 0
        guard previous == nil else { return }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        saved.initialize(repeating: sigaction(), count: Int(NSIG))
        previous = saved
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            if let line = CrashReporter.line { _ = write(2, line, CrashReporter.lineLength) }
            if let previous = CrashReporter.previous { _ = sigaction(signal, previous + Int(signal), nil) }
        }
        sigemptyset(&action.sa_mask)
        for signal in signals {
            _ = sigaction(signal, &action, saved + Int(signal))
        }
    }
}
#endif
