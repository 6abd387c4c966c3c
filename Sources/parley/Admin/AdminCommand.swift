import Foundation
import ParleyNet
import ParleyServer
import ParleySync

/// `parley admin …`: administration on the server's machine (docs/operations.md,
/// "Administration"). The data directory and store are chosen as for `serve` (`--data`,
/// `--store`, or `PARLEY_DATA`, `PARLEY_STORE`). When a server answers on the data
/// directory's admin socket (or `--socket PATH`), the command goes to it and the running
/// server carries it out; otherwise it runs here on the data directory's store.
enum AdminCommand {
    static let usage = """
        usage: parley admin [--data DIR] [--store URL] [--socket PATH] <command>

        With a server running on the data directory, commands go through its local admin
        socket (<data>/admin.sock, or --socket PATH / --admin-socket as given to parley serve)
        and the server carries them out: a suspension closes the user's connections at once.
        Without one, they run on the data directory's store.

        commands:
          grant USERNAME                 give USERNAME the admin role (only here, never over the network)
          revoke USERNAME                take it away
          users search TEXT              accounts whose name, nickname, id or phone matches
          users show USER_ID
          suspend USER_ID --reason TEXT [--days N]
          unsuspend USER_ID [--reason TEXT]
          revoke-sessions USER_ID [--reason TEXT]   sign the user out everywhere
          stats                          users, active today, messages today, store size, open reports
          reports list [--status open|resolved] [--reason R] [--userId ID] [--before ID]
          reports resolve REPORT_ID dismissed|content_removed|user_suspended|other [--reason TEXT]
          audit [--before ID]            the audit log, newest first
          backup DEST                    an online, consistent copy of the data (SQLite) into the new directory DEST
                                         (through the socket, the server writes it, as its own user)
          restore SRC                    a backup into the data directory, which must be empty

        """

    static func run(arguments: [String], environment: [String: String]) -> Never {
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        // The store's own flags go to the server's parser; the rest is the command.
        var serverFlags: [String] = []
        var socket: String?
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--socket", index + 1 < arguments.count {
                socket = arguments[index + 1]
                index += 2
            } else if ["--data", "--store", "--admin-socket"].contains(arguments[index]), index + 1 < arguments.count {
                serverFlags += [arguments[index], arguments[index + 1]]
                index += 2
            } else {
                words.append(arguments[index])
                index += 1
            }
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.parse(arguments: serverFlags, environment: environment)
        } catch {
            fail("\(error)")
        }
        do {
            // A running server (its socket answers) carries every command out but `restore`,
            // which fills an empty data directory no server runs on.
            let running = socket ?? configuration.adminSocketPath.flatMap { LocalSocketClient.isListening($0) ? $0 : nil }
            switch (words.first, words.count) {
            case ("restore", 2):
                print(try AdminBackup.restore(from: words[1], into: configuration.dataDirectory))
            case _ where running != nil:
                try runThroughSocket(running ?? "", words)
            case ("backup", 2):
                print(try AdminBackup.backupStopped(configuration, to: words[1]))
            default:
                try runOnStore(configuration, words)
            }
        } catch {
            fail("\(error)", code: 1)
        }
        exit(0)
    }

    /// Sends the command to the running server and prints its answer; a refusal goes to
    /// standard error with its code, and the command fails.
    private static func runThroughSocket(_ path: String, _ words: [String]) throws {
        var command = words
        // The server resolves paths against its own working directory, not ours.
        if command.first == "backup", command.count == 2, !command[1].hasPrefix("/") {
            command[1] = FileManager.default.currentDirectoryPath + "/" + command[1]
        }
        let client = try LocalSocketClient(path: path, timeout: .seconds(600))
        let request = String(decoding: try JSONEncoder().encode(["command": command]), as: UTF8.self)
        let answer = try JSONDecoder().decode(SocketAnswer.self, from: Data(try client.exchange(request).utf8))
        guard answer.ok, let output = answer.output else {
            throw AdminConsoleError("\(answer.error?.code ?? "error"): \(answer.error?.message ?? "the server gave no reason")")
        }
        print(output)
    }

    /// The server's answer line (docs/operations.md, "The local admin socket").
    private struct SocketAnswer: Decodable {
        struct Refusal: Decodable {
            var code: String
            var message: String
        }
        var ok: Bool
        var output: String?
        var error: Refusal?
    }

    private static func runOnStore(_ configuration: ServerConfiguration, _ words: [String]) throws {
        guard configuration.store.isEmpty == false || FileManager.default.fileExists(atPath: configuration.dataDirectory + "/parley.sqlite") else {
            throw AdminConsoleError("no database in \(configuration.dataDirectory); give --data (or PARLEY_DATA) as for parley serve")
        }
        let console = try AdminConsole(configuration: configuration)
        defer { console.close() }
        // The command's result, handed from its task to this (main) thread.
        let outcome = PThreadMutex<Result<String, any Error>>(.failure(AdminConsoleError("the command did not finish")))
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let text = try await console.run(words)
                outcome.withLock { $0 = .success(text) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        print(try outcome.withLock { $0 }.get())
    }
}
