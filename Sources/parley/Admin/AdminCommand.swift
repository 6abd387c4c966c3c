import Foundation
import ParleyServer
import ParleySync

/// `parley admin …`: administration on the server's machine (docs/operations.md,
/// "Administration"). The data directory and store are chosen as for `serve` (`--data`,
/// `--store`, or `PARLEY_DATA`, `PARLEY_STORE`).
enum AdminCommand {
    static let usage = """
        usage: parley admin [--data DIR] [--store URL] <command>

        commands:
          grant USERNAME                 give USERNAME the admin role (only here, never over the network)
          revoke USERNAME                take it away
          users search TEXT              accounts whose name, nickname, id or phone matches
          users show USER_ID
          suspend USER_ID --reason TEXT [--days N]
          unsuspend USER_ID [--reason TEXT]
          stats                          users, active today, messages today, store size, open reports
          reports list [--status open|resolved] [--reason R] [--userId ID] [--before ID]
          reports resolve REPORT_ID dismissed|content_removed|user_suspended|other [--reason TEXT]
          audit [--before ID]            the audit log, newest first
          backup DEST                    an online, consistent copy of the data (SQLite) into the new directory DEST
          restore SRC                    a backup into the data directory, which must be empty

        """

    static func run(arguments: [String], environment: [String: String]) -> Never {
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        // The store's own flags go to the server's parser; the rest is the command.
        var serverFlags: [String] = []
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            if ["--data", "--store"].contains(arguments[index]), index + 1 < arguments.count {
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
            switch (words.first, words.count) {
            case ("backup", 2):
                print(try AdminBackup.backup(configuration, to: words[1]))
            case ("restore", 2):
                print(try AdminBackup.restore(from: words[1], into: configuration.dataDirectory))
            default:
                try runOnStore(configuration, words)
            }
        } catch {
            fail("\(error)", code: 1)
        }
        exit(0)
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
