import Foundation

/// Runs a peer program from `Tests/e2e/peers` with the project's Python (the virtual
/// environment `make test` creates, or `PARLEY_PYTHON`), so Parley is tested against code it
/// did not write.
final class PythonPeer {
    let process = Process()
    private let output = Pipe()

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var python: String {
        if let configured = ProcessInfo.processInfo.environment["PARLEY_PYTHON"] { return configured }
        return repositoryRoot.appendingPathComponent(".venv/bin/python").path
    }

    init(script: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.repositoryRoot.appendingPathComponent("Tests/e2e/peers/\(script)").path] + arguments
        process.standardOutput = output
        try process.run()
    }

    /// The first line the peer prints (e.g. its port).
    func firstLine() -> String {
        var bytes: [UInt8] = []
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first, byte != 0x0A else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
