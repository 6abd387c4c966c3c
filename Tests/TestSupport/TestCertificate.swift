import Foundation

/// A self-signed certificate (its own CA) for `localhost` and `127.0.0.1`, made by `openssl
/// req` in a temporary directory for one test.
public struct TestCertificate {
    public let directory: String
    public let certificatePath: String
    public let keyPath: String

    /// Makes a new key and certificate with `commonName`.
    public init(commonName: String = "localhost") throws {
        directory = NSTemporaryDirectory() + "parley-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        certificatePath = directory + "/cert.pem"
        keyPath = directory + "/key.pem"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=\(commonName)",
                             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
