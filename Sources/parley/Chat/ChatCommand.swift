import Dispatch
import Foundation
import ParleyKit

/// `parley chat [--server URL] [--data DIR] [--ca-file PEM]`: options, then the app on the main actor.
enum ChatCommand {
    static let help = """
        parley chat — the terminal client

        usage: parley chat [--server URL] [--data DIR] [--ca-file PEM] [--lang en|zh]

          --server URL   the Parley server, http(s):// or ws(s):// (env PARLEY_SERVER;
                         default http://127.0.0.1:8080)
          --ca-file PEM  CA certificates to check an https/wss server's certificate
                         against, instead of the system's (env PARLEY_CA_FILE)
          --data DIR     where the local cache and outbox live (env PARLEY_CHAT_DATA;
                         default ~/.local/share/parley)
          --lang en|zh   the language of notices and labels (default: from LANG)

        Colours follow NO_COLOR (https://no-color.org): set it for monochrome.
        """

    /// Parses `arguments` and runs the client; never returns.
    static func run(arguments: [String], environment: [String: String]) -> Never {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            exit(0)
        }
        var server = environment["PARLEY_SERVER"] ?? "http://127.0.0.1:8080"
        var data = environment["PARLEY_CHAT_DATA"]
        var caFile = environment["PARLEY_CA_FILE"]
        var language = ParleyLanguage.preferred
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            let (name, inline) = split(flag)
            guard let value = inline ?? remaining.popFirst() else { fail("\(name) needs a value") }
            switch name {
            case "--server": server = value
            case "--data": data = value
            case "--ca-file": caFile = value
            case "--lang":
                guard let chosen = ParleyLanguage(rawValue: value) else { fail("--lang is en or zh") }
                language = chosen
            default: fail("unknown option \(name)\n\n\(help)")
            }
        }
        // A WebSocket URL names the same server: wss:// is https://, ws:// is http://.
        if server.hasPrefix("wss://") || server.hasPrefix("ws://") {
            server = (server.hasPrefix("wss://") ? "https://" : "http://") + server.drop { $0 != "/" }.dropFirst(2)
            if server.hasSuffix("/v1/ws") { server.removeLast("/v1/ws".count) }
        }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            fail("--server must be an http(s):// or ws(s):// URL, not \(server)")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            fail("--ca-file \(caFile) is not a readable file")
        }
        guard Terminal.isInteractive else { fail("parley chat needs a terminal") }
        let directory = data ?? ((environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() + "/.local/share")) + "/parley")
        let database = directory + "/chat-\(url.host ?? "server")-\(url.port ?? (url.scheme == "https" ? 443 : 80)).sqlite"
        let client: ParleyClient
        do {
            client = try ParleyClient(configuration: ParleyClient.Configuration(server: url, databasePath: database,
                                                                               userAgent: "parley-chat", caFile: caFile))
        } catch {
            fail("cannot open \(database): \(error)")
        }
        let colors = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        Task { @MainActor in
            let terminal: Terminal
            do {
                terminal = try Terminal()
            } catch {
                fail("\(error)")
            }
            let log = environment["PARLEY_CHAT_LOG"].flatMap { ChatLog(path: $0) }
            let app = ChatApp(client: client, terminal: terminal, colors: colors, language: language, log: log)
            await app.run()
            terminal.restore()
            exit(0)
        }
        dispatchMain()
    }

    private static func split(_ flag: String) -> (String, String?) {
        guard let equals = flag.firstIndex(of: "=") else { return (flag, nil) }
        return (String(flag[..<equals]), String(flag[flag.index(after: equals)...]))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("parley chat: \(message)\n".utf8))
        exit(2)
    }
}
