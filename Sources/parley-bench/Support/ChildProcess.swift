import Glibc

/// A child process started with `posix_spawn`, with pipes on its standard input and output.
///
/// Load workers read their standard input and exit at end of file. The only writer is
/// this process, so when it ends in any way (even SIGKILL) the kernel closes the pipe and
/// the workers follow: they cannot outlive the bench that started them.
final class ChildProcess {
    /// The child's process id.
    let pid: pid_t
    private var inputFD: Int32
    private var outputFD: Int32
    private var pending: [UInt8] = []
    /// How the child ended, once it has been reaped.
    private(set) var termination: Termination?

    /// How a child process ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): return "exited with status \(code)"
            case .signaled(let signal): return "killed by signal \(signal)"
            }
        }
    }

    /// Starts `arguments[0]` (searched in `PATH` unless it contains a slash) with the
    /// remaining arguments. Standard error is shared with this process.
    init(arguments: [String]) throws(BenchError) {
        precondition(!arguments.isEmpty, "ChildProcess needs a program")
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw .system("pipe failed: errno \(errno)") }
        guard pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw .system("pipe failed: errno \(errno)")
        }
        // Every pipe end is close-on-exec, so one worker never holds another worker's stdin
        // open (which would keep it alive after the parent is gone); dup2 below clears the
        // flag on the copies the child gets as 0 and 1.
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(output[0], F_SETFL, O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)

        // The child starts with no blocked signals, whatever this thread blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptySet = sigset_t()
        sigemptyset(&emptySet)
        posix_spawnattr_setsigmask(&attributes, &emptySet)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        close(input[0])
        close(output[1])
        guard rc == 0 else {
            close(input[1]); close(output[0])
            throw .system("cannot start \(arguments[0]): error \(rc)")
        }
        pid = child
        inputFD = input[1]
        outputFD = output[0]
    }

    deinit {
        if inputFD >= 0 { close(inputFD) }
        if outputFD >= 0 { close(outputFD) }
    }

    /// Whether the child's standard output has reached its end (the child closed it or ended).
    var outputEnded: Bool { outputFD < 0 }

    /// Sends `text` and a newline to the child's standard input (best effort).
    func send(_ text: String) {
        guard inputFD >= 0 else { return }
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
    }

    /// Closes the child's standard input: a worker takes it as the order to exit.
    func closeInput() {
        guard inputFD >= 0 else { return }
        close(inputFD)
        inputFD = -1
    }

    /// Reads what the child has written so far without blocking; returns the complete lines.
    func readLines() -> [String] {
        guard outputFD >= 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(outputFD, $0.baseAddress, $0.count) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count == 0 {
                close(outputFD)
                outputFD = -1
                if !pending.isEmpty { pending.append(UInt8(ascii: "\n")) }
            }
            break
        }
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }

    /// Waits up to `timeoutMilliseconds` until one of `children` has output to read (or
    /// has ended).
    static func waitForOutput(_ children: [ChildProcess], timeoutMilliseconds: Int32) {
        var fds = children.filter { $0.outputFD >= 0 }.map { pollfd(fd: $0.outputFD, events: Int16(POLLIN), revents: 0) }
        guard !fds.isEmpty else {
            usleep(UInt32(max(0, timeoutMilliseconds)) * 1000)
            return
        }
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
    }

    /// Reaps the child if it has ended; returns how it ended, or nil while it runs.
    @discardableResult
    func checkTermination() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return nil }
        // The wait status layout of Linux: low 7 bits the signal, or 0 and the code above.
        let signal = status & 0x7f
        termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        return termination
    }

    /// Closes its input, waits up to `grace` for it to end, then kills it. Returns how it ended.
    @discardableResult
    func stop(grace: Duration) -> Termination? {
        closeInput()
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let ended = checkTermination() { return ended }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        for _ in 0..<100 {
            if let ended = checkTermination() { return ended }
            usleep(10_000)
        }
        return nil
    }
}
