import Foundation

// Defaults that depend on the machine the server runs on.
extension ServerConfiguration {
    /// The machine's host name, lowercased (`localhost` if it has none).
    public static func defaultXMPPDomain() -> String {
        let name = ProcessInfo.processInfo.hostName.lowercased()
        return name.isEmpty ? "localhost" : name
    }

    /// The web client shipped with Parley: `./Web` when started from the repository, else the
    /// `Web/` of the repository the executable was built in (`.build/<config>/parley`).
    public static func defaultWebRoot() -> String {
        let files = FileManager.default
        var candidates = [files.currentDirectoryPath + "/Web"]
        if let executable = try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("Web").path)
                directory = directory.deletingLastPathComponent()
            }
        }
        return candidates.first { files.fileExists(atPath: $0 + "/index.html") } ?? candidates[0]
    }
}
