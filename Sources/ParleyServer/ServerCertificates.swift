import ParleyNet

/// The server's TLS contexts, made from `--tls-cert`/`--tls-key` (HTTPS and WSS, ALPN
/// `http/1.1`) and for XMPP (STARTTLS and direct TLS, ALPN `xmpp-client`) from
/// `--xmpp-tls-cert`/`--xmpp-tls-key` when given, else from the same pair. Reloaded on SIGHUP.
final class ServerCertificates: Sendable {
    /// A certificate chain, its key, and the context made from them.
    struct Loaded: Sendable {
        let certificatePath: String
        let keyPath: String
        let context: TLSContext
        /// The flag named in errors.
        let flag: String
        /// What it serves, for the log: `https` or `xmpp`.
        let purpose: String
    }

    private let main: Loaded?
    private let xmppPair: Loaded?

    /// The main port's context, or nil for plaintext.
    var http: TLSContext? { main?.context }
    /// XMPP's context (STARTTLS and direct TLS), or nil when XMPP has no certificate.
    var xmpp: TLSContext? { xmppPair?.context }

    /// Loads the pairs the configuration names. Throws a `ConfigurationError` that names the
    /// flag when a file is missing, unreadable, or the key does not match.
    init(configuration: ServerConfiguration) throws(ConfigurationError) {
        main = try Self.load(certificate: configuration.tlsCertificate, key: configuration.tlsKey,
                             alpn: ["http/1.1"], flag: "tls", purpose: "https")
        if !configuration.xmppTLSCertificate.isEmpty || !configuration.xmppTLSKey.isEmpty {
            xmppPair = try Self.load(certificate: configuration.xmppTLSCertificate, key: configuration.xmppTLSKey,
                                     alpn: ["xmpp-client"], flag: "xmpp-tls", purpose: "xmpp")
        } else {
            xmppPair = try Self.load(certificate: configuration.tlsCertificate, key: configuration.tlsKey,
                                     alpn: ["xmpp-client"], flag: "tls", purpose: "xmpp")
        }
    }

    private static func load(certificate: String, key: String, alpn: [String], flag: String,
                             purpose: String) throws(ConfigurationError) -> Loaded? {
        guard !certificate.isEmpty || !key.isEmpty else { return nil }
        guard !certificate.isEmpty, !key.isEmpty else {
            throw ConfigurationError.invalidValue(flag: certificate.isEmpty ? "\(flag)-cert" : "\(flag)-key", value: "",
                                                  expected: "a PEM file (--\(flag)-cert and --\(flag)-key go together)")
        }
        do {
            let context = try TLSContext(certificatePath: certificate, keyPath: key, alpn: alpn)
            return Loaded(certificatePath: certificate, keyPath: key, context: context, flag: flag, purpose: purpose)
        } catch {
            throw ConfigurationError.invalidValue(flag: "\(flag)-cert", value: certificate,
                                                  expected: "a PEM certificate chain whose private key is --\(flag)-key (\(error))")
        }
    }

    /// Reads every pair again; a pair that fails is logged and the one in use kept.
    func reload(logger: Logger) {
        for pair in [main, xmppPair].compactMap({ $0 }) {
            do throws(TLSError) {
                try pair.context.reload(certificatePath: pair.certificatePath, keyPath: pair.keyPath)
                logger.info("tls certificate reloaded", ["certificate": .string(pair.certificatePath), "for": .string(pair.purpose)])
            } catch {
                logger.error("tls certificate reload failed; the previous one stays in use",
                             ["certificate": .string(pair.certificatePath), "for": .string(pair.purpose),
                              "error": .string(error.description)])
            }
        }
    }
}
