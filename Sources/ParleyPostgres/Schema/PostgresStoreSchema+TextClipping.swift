import ParleyStoreSupport

extension PostgresStoreSchema {
    /// Version 6: user text stored before the limits in characters and bytes is cut to them
    /// (`TextClipping`), in PostgreSQL's spelling; the same step as SQLite's version 7.
    static let textClipping: String = {
        let hobby = TextClipping.limit(.hobby), hobbies = TextClipping.maxHobbies
        return TextClipping.sql(TextClipping.Dialect(
            version: 6,
            prefix: { column, length in "left(\(column), \(length))" },
            countAsText: "n::text",
            createNotesTable: "CREATE TABLE migration_notes (version BIGINT NOT NULL, note TEXT NOT NULL);",
            hobbiesTooLong: "(jsonb_array_length(hobbies) > \(hobbies) OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(users.hobbies) AS h(value) WHERE length(h.value) > \(hobby)))",
            hobbiesCut: """
                (SELECT coalesce(jsonb_agg(left(h.value, \(hobby)) ORDER BY h.n), '[]'::jsonb)
                 FROM jsonb_array_elements_text(users.hobbies) WITH ORDINALITY AS h(value, n) WHERE h.n <= \(hobbies))
                """))
    }()
}
