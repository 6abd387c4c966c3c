public import ParleyCore

/// The schema step that cuts user text stored before the limits in Unicode scalars and bytes
/// (`TextLimits`) to the defaults of their `TextField`s, written once for both stores and
/// spelled in each one's SQL (`Dialect`): SQLite's version 7, PostgreSQL's version 6.
///
/// Every default byte limit is four times its character limit, so cutting to the characters
/// keeps the bytes within bounds too; both engines' `length` counts characters as code points,
/// which are Unicode scalars. Before those limits, lengths were counted in grapheme clusters,
/// so one "character" could hold megabytes. Each change is counted in `migration_notes` first,
/// for the server to log. Over-long client ids are dropped rather than cut (a cut one could
/// collide with another of the sender's); over-long group and room names are cut and given
/// their conversation's id, so they stay unique.
public enum TextClipping {
    /// How one engine spells what differs.
    public struct Dialect: Sendable {
        /// The schema version of the step.
        public var version: Int
        /// The first `length` characters of `column`.
        public var prefix: @Sendable (_ column: String, _ length: Int) -> String
        /// A count as text, to join to a note.
        public var countAsText: String
        /// The statement that makes the `migration_notes` table (version, note).
        public var createNotesTable: String
        /// Whether a user's hobbies (a JSON array) break the limits.
        public var hobbiesTooLong: String
        /// The hobbies cut: the first hobbies, each cut.
        public var hobbiesCut: String

        public init(version: Int, prefix: @escaping @Sendable (String, Int) -> String, countAsText: String, createNotesTable: String,
                    hobbiesTooLong: String, hobbiesCut: String) {
            self.version = version
            self.prefix = prefix
            self.countAsText = countAsText
            self.createNotesTable = createNotesTable
            self.hobbiesTooLong = hobbiesTooLong
            self.hobbiesCut = hobbiesCut
        }
    }

    /// The characters a field's stored values are cut to.
    public static func limit(_ field: TextField) -> Int { field.defaultLimit.characters.upperBound }

    /// Most hobbies a profile keeps (`AccountRules.maxHobbies`' default).
    public static let maxHobbies = AccountRules().maxHobbies

    /// A name too long is cut and given its conversation's id, so it stays unique.
    public static var nameStem: Int { limit(.name) - 12 }

    /// The step's SQL in `dialect`.
    public static func sql(_ dialect: Dialect) -> String {
        func note(_ what: String, _ table: String, _ condition: String) -> String {
            "INSERT INTO migration_notes SELECT \(dialect.version), \(dialect.countAsText) || ' \(what)' FROM (SELECT count(*) AS n FROM \(table) WHERE \(condition)) c WHERE n > 0;"
        }
        func cut(_ table: String, _ column: String, _ field: TextField, _ noun: String) -> String {
            let n = limit(field)
            return """
                \(note("\(noun) cut to \(n) characters", table, "length(\(column)) > \(n)"))
                UPDATE \(table) SET \(column) = \(dialect.prefix(column, n)) WHERE length(\(column)) > \(n);
                """
        }
        let name = limit(.name), stem = nameStem, clientID = limit(.clientId)
        return """
            \(dialect.createNotesTable)
            \(cut("users", "nickname", .nickname, "nicknames"))
            \(cut("users", "signature", .signature, "signatures"))
            \(note("hobby lists cut to \(maxHobbies) hobbies of \(limit(.hobby)) characters", "users", dialect.hobbiesTooLong))
            UPDATE users SET hobbies = \(dialect.hobbiesCut) WHERE \(dialect.hobbiesTooLong);
            \(cut("friend_requests", "greeting", .greeting, "friend request greetings"))
            \(note("group and room names cut to \(stem) characters and their id", "conversations", "length(name) > \(name)"))
            UPDATE conversations SET name = \(dialect.prefix("name", stem)) || '~' || id, name_key = lower(\(dialect.prefix("name", stem))) || '~' || id
                WHERE length(name) > \(name);
            \(cut("conversations", "description", .description, "group and room descriptions"))
            \(cut("messages", "text", .text, "text messages"))
            \(note("client ids longer than \(clientID) characters dropped", "messages", "length(client_id) > \(clientID)"))
            UPDATE messages SET client_id = NULL WHERE length(client_id) > \(clientID);
            """
    }
}
