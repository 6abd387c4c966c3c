import ParleyStoreSupport

extension SQLiteStoreSchema {
    /// Version 7: user text stored before the limits in characters and bytes is cut to them
    /// (`TextClipping`), in SQLite's spelling.
    static let textClipping: String = {
        let hobby = TextClipping.limit(.hobby), hobbies = TextClipping.maxHobbies
        return TextClipping.sql(TextClipping.Dialect(
            version: 7,
            prefix: { column, length in "substr(\(column), 1, \(length))" },
            countAsText: "n",
            createNotesTable: "CREATE TABLE migration_notes (version INTEGER NOT NULL, note TEXT NOT NULL) STRICT;",
            hobbiesTooLong: "(json_array_length(hobbies) > \(hobbies) OR EXISTS (SELECT 1 FROM json_each(users.hobbies) WHERE length(value) > \(hobby)))",
            hobbiesCut: "(SELECT json_group_array(substr(value, 1, \(hobby))) FROM (SELECT value FROM json_each(users.hobbies) ORDER BY key LIMIT \(hobbies)))"))
    }()
}
