import Foundation
import ParleyNet
import ParleyServer

let usage = """
    parley \(ParleyVersion.current) — a self-hosted chat server

    usage: parley <command> [options]

    commands:
      serve       start the server (parley serve --help lists its options)
      chat        the terminal client (parley chat --help)
      admin       administration on the server's machine (parley admin --help)
      version     print the version

    """

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("parley: \(message)\n".utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "--help" : arguments.removeFirst()

switch command {
case "serve":
    // Before any thread exists, so that every thread inherits the mask; `chat` handles
    // signals its own way.
    ServerSignal.blockInThisProcess()
    if arguments.contains("--help") || arguments.contains("-h") {
        print(ServerConfiguration.helpText)
        exit(0)
    }
    if arguments == ["--settings-markdown"] {
        print(ServerConfiguration.markdownTable)
        exit(0)
    }
    let configuration: ServerConfiguration
    do {
        configuration = try ServerConfiguration.parse(arguments: arguments, environment: ProcessInfo.processInfo.environment)
    } catch {
        fail("\(error)")
    }
    let logger = Logger(label: "parley", minimumLevel: Logger.Level(name: configuration.logLevel) ?? .info)
    let server: ParleyServer
    do {
        server = try ParleyServer(configuration: configuration, logger: logger)
    } catch {
        logger.error("could not start", ["error": .string("\(error)")])
        fail("could not start: \(error)", code: 1)
    }
    let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    let scheme = configuration.tlsCertificate.isEmpty ? "http" : "https"
    FileHandle.standardOutput.write(Data("Parley is running at \(scheme)://\(shownHost):\(server.port)/ — press Ctrl-C to stop\n".utf8))
    // SIGHUP reloads the certificate and goes on; SIGINT or SIGTERM stops.
    while case .reload = ServerSignal.wait() {
        logger.info("signal received", ["signal": .string("SIGHUP")])
        server.reloadCertificates()
    }
    logger.info("signal received", ["signal": .string("shutdown")])
    server.shutdown()
    exit(0)
case "chat":
    ChatCommand.run(arguments: arguments, environment: ProcessInfo.processInfo.environment)
case "admin":
    AdminCommand.run(arguments: arguments, environment: ProcessInfo.processInfo.environment)
case "version", "--version", "-v":
    print(ParleyVersion.current)
case "--help", "-h", "help":
    print(usage)
default:
    fail("unknown command '\(command)'\n\(usage)")
}
