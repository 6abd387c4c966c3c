import ParleyStoreSupport

extension PostgresStoreSchema {
    /// Version 6: user text stored before the limits in characters and bytes is cut to them
    /// (`TextClipping`), each change counted in `migration_notes` first; the same step as
    /// SQLite's version 7. Over-long client ids are dropped rather than cut (a cut one could
    /// collide with another of the sender's); over-long group and room names are cut and
    /// given their id, so they stay unique.
    static let textClipping: String = {
        let nickname = TextClipping.limit(.nickname), signature = TextClipping.limit(.signature)
        let hobby = TextClipping.limit(.hobby), greeting = TextClipping.limit(.greeting)
        let name = TextClipping.limit(.name), description = TextClipping.limit(.description)
        let text = TextClipping.limit(.text), clientID = TextClipping.limit(.clientId)
        let hobbies = TextClipping.maxHobbies, stem = TextClipping.nameStem
        func note(_ what: String, _ table: String, _ condition: String) -> String {
            "INSERT INTO migration_notes SELECT 6, n::text || ' \(what)' FROM (SELECT count(*) AS n FROM \(table) WHERE \(condition)) c WHERE n > 0;"
        }
        let longHobbies = "jsonb_array_length(hobbies) > \(hobbies) OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(users.hobbies) AS h(value) WHERE length(h.value) > \(hobby))"
        return """
            CREATE TABLE migration_notes (
                version BIGINT NOT NULL,
                note    TEXT NOT NULL
            );
            \(note("nicknames cut to \(nickname) characters", "users", "length(nickname) > \(nickname)"))
            UPDATE users SET nickname = left(nickname, \(nickname)) WHERE length(nickname) > \(nickname);
            \(note("signatures cut to \(signature) characters", "users", "length(signature) > \(signature)"))
            UPDATE users SET signature = left(signature, \(signature)) WHERE length(signature) > \(signature);
            \(note("hobby lists cut to \(hobbies) hobbies of \(hobby) characters", "users", longHobbies))
            UPDATE users SET hobbies = (SELECT coalesce(jsonb_agg(left(h.value, \(hobby)) ORDER BY h.n), '[]'::jsonb)
                                        FROM jsonb_array_elements_text(users.hobbies) WITH ORDINALITY AS h(value, n)
                                        WHERE h.n <= \(hobbies))
                WHERE \(longHobbies);
            \(note("friend request greetings cut to \(greeting) characters", "friend_requests", "length(greeting) > \(greeting)"))
            UPDATE friend_requests SET greeting = left(greeting, \(greeting)) WHERE length(greeting) > \(greeting);
            \(note("group and room names cut to \(stem) characters and their id", "conversations", "length(name) > \(name)"))
            UPDATE conversations SET name = left(name, \(stem)) || '~' || id, name_key = lower(left(name, \(stem))) || '~' || id
                WHERE length(name) > \(name);
            \(note("group and room descriptions cut to \(description) characters", "conversations", "length(description) > \(description)"))
            UPDATE conversations SET description = left(description, \(description)) WHERE length(description) > \(description);
            \(note("text messages cut to \(text) characters", "messages", "length(text) > \(text)"))
            UPDATE messages SET text = left(text, \(text)) WHERE length(text) > \(text);
            \(note("client ids longer than \(clientID) characters dropped", "messages", "length(client_id) > \(clientID)"))
            UPDATE messages SET client_id = NULL WHERE length(client_id) > \(clientID);
            """
    }()
}
