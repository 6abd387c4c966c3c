import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The running server's local admin socket (docs/operations.md, "The local admin socket"):
/// `parley admin` on the server's machine sends its command here, one JSON line, and the
/// server runs it with its own services, so a suspension closes the user's open
/// connections at once and nothing but the server writes its store. Every command goes
/// through `AdminCommands`, the interpreter `parley admin` runs on a data directory too, and
/// is audit-logged as `local admin (uid N)`, N the peer's uid from the kernel.
enum AdminSocket {
    /// One request line.
    struct Request: Decodable {
        /// Echoed in the answer, for a client that sends several lines.
        var id: String?
        /// The command's words, as typed after `parley admin`, e.g. `["suspend", "12", "--reason", "spam"]`.
        var command: [String]
    }

    /// One answer line: `output` when `ok`, else `error`.
    struct Response: Codable {
        var id: String?
        var ok: Bool
        var output: String?
        var error: ProtocolError?
    }

    /// Opens the socket `--admin-socket` names (nil when it is `off`).
    ///
    /// `store` is the server's own: a `backup` reads it first, which makes every message row
    /// acknowledged before the command came part of the database file the copy is taken from
    /// (with `--message-log-apply later` such rows may be only in the message log, which a
    /// backup does not copy).
    static func start(configuration: ServerConfiguration, services: ServerServices, store: any Store, pool: BlockingPool,
                      connections: @escaping @Sendable () -> Int, logger: Logger) throws -> LocalSocketServer? {
        guard let path = configuration.adminSocketPath else { return nil }
        // A Unix socket's path has at most 107 bytes. A data directory deep enough to pass it
        // is no reason to refuse to start; an --admin-socket given so is (bind fails).
        if configuration.adminSocket.isEmpty && path.utf8.count > 107 {
            logger.warning("the data directory's path is too long for the admin socket; give --admin-socket a shorter path",
                           ["path": .string(path)])
            return nil
        }
        let admin = services.admin
        let tooLong = line(Response(id: nil, ok: false, output: nil,
                                    error: ProtocolError(.payloadTooLarge, "a request line may have at most \(configuration.maxAdminSocketLineBytes) bytes")))
        let busy = line(Response(id: nil, ok: false, output: nil,
                                 error: ProtocolError(.unavailable, "the admin socket serves \(configuration.maxAdminSocketConnections) connections at once; try again")))
        let server = try LocalSocketServer(path: path, maxLineBytes: configuration.maxAdminSocketLineBytes,
                                           timeout: .seconds(configuration.adminSocketTimeoutSeconds), tooLong: tooLong,
                                           maxConnections: configuration.maxAdminSocketConnections, busy: busy) { text, peer in
            let commands = AdminCommands(admin: admin.acting(as: AdminCommands.localActor(uid: peer.uid)), connections: connections,
                                         backup: { destination in
                // `Store.read` returns only once every row acknowledged before it began is in
                // SQLite (applied first if it was only in the log): the copy then holds them.
                _ = try await store.read { _ in true }
                // The copy reads the database for a while: off the accept thread's task, on the pool.
                return try await pool.run { try AdminBackup.backup(configuration, to: destination) }
            })
            return await AdminSocket.answer(text, commands: commands, uid: peer.uid, logger: logger)
        }
        logger.info("admin socket listening", ["path": .string(path)])
        return server
    }

    static func answer(_ text: String, commands: AdminCommands, uid: UInt32, logger: Logger) async -> String {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(text.utf8))
        } catch {
            return line(Response(id: nil, ok: false, output: nil,
                                 error: ProtocolError(.badRequest, "send one JSON object per line: {\"command\": [\"stats\"]}")))
        }
        // The command's name only: its arguments may hold a reason or a path, never a secret,
        // but the log need not repeat them.
        logger.info("admin socket command", ["command": .string(request.command.first ?? ""), "uid": .int(Int(uid))])
        do {
            return line(Response(id: request.id, ok: true, output: try await commands.run(request.command), error: nil))
        } catch let error as ProtocolError {
            return line(Response(id: request.id, ok: false, output: nil, error: error))
        } catch let error as AdminConsoleError {
            return line(Response(id: request.id, ok: false, output: nil, error: ProtocolError(.badRequest, error.description)))
        } catch {
            logger.error("admin socket command failed", ["command": .string(request.command.first ?? ""), "error": .string("\(error)")])
            return line(Response(id: request.id, ok: false, output: nil, error: ProtocolError(.internalError, "\(error)")))
        }
    }

    /// One JSON line (no newline inside: JSONEncoder escapes those in strings).
    static func line(_ response: Response) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(response) else {
            return #"{"error":{"code":"internal_error","message":"the answer could not be encoded"},"ok":false}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
