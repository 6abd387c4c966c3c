import ParleyNet

/// `--tls` for the scenarios that drive `parley serve` (`direct`, `native-idle`): WSS and
/// HTTPS instead of WS and HTTP, the certificate checked against `--ca-file`, or not at all
/// with the explicit `--insecure-skip-verify` (a throwaway benchmark certificate).
enum BenchTLS {
    static let help = """
        --tls               speak TLS (wss://, https://) to a parley serve started with --tls-cert
        --ca-file F         with --tls: trust this CA (PEM) for the server's certificate (default:
                            the system's CAs); the server is reached as 127.0.0.1, so the
                            certificate needs that address among its names
        --insecure-skip-verify
                            with --tls: accept any certificate, unverified (benchmarks only)
        """
    static let valueOptions: Set<String> = ["ca-file"]
    static let switchOptions: Set<String> = ["tls", "insecure-skip-verify"]

    /// The client context the options ask for, or nil without `--tls`.
    static func parse(_ options: CommandLineOptions) throws(BenchError) -> TLSContext? {
        guard options.flag("tls") else {
            if options.optionalString("ca-file") != nil || options.flag("insecure-skip-verify") {
                throw .usage("--ca-file and --insecure-skip-verify go with --tls")
            }
            return nil
        }
        let insecure = options.flag("insecure-skip-verify")
        let caFile = options.optionalString("ca-file")
        if insecure && caFile != nil { throw .usage("give --ca-file or --insecure-skip-verify, not both") }
        do {
            return try TLSContext(clientCAFile: caFile, alpn: ["http/1.1"], verifyPeer: !insecure)
        } catch {
            throw .usage("--tls: \(error)")
        }
    }
}
