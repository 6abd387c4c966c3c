import ParleyStoreSupport

extension SQLiteStoreSchema {
    /// Version 7: user text stored before the limits in characters and bytes is cut to them
    /// (`TextClipping`), each change counted in `migration_notes` first. Over-long client ids
    /// are dropped rather than cut (a cut one could collide with another of the sender's);
    /// over-long group and room names are cut and given their id, so they stay unique.
    static let textClipping: String = {
        let nickname = TextClipping.limit(.nickname), signature = TextClipping.limit(.signature)
        let hobby = TextClipping.limit(.hobby), greeting = TextClipping.limit(.greeting)
        let name = TextClipping.limit(.name), description = TextClipping.limit(.description)
        let text = TextClipping.limit(.text), clientID = TextClipping.limit(.clientId)
        let hobbies = TextClipping.maxHobbies, stem = TextClipping.nameStem
        func note(_ what: String, _ table: String, _ condition: String) -> String {
            "INSERT INTO migration_notes SELECT 7, n || ' \(what)' FROM (SELECT count(*) AS n FROM \(table) WHERE \(condition)) WHERE n > 0;"
        }
        let longHobbies = "json_array_length(hobbies) > \(hobbies) OR EXISTS (SELECT 1 FROM json_each(users.hobbies) WHERE length(value) > \(hobby))"
        return """
            CREATE TABLE migration_notes (
                version INTEGER NOT NULL,
                note    TEXT NOT NULL
            ) STRICT;
            \(note("nicknames cut to \(nickname) characters", "users", "length(nickname) > \(nickname)"))
            UPDATE users SET nickname = substr(nickname, 1, \(nickname)) WHERE length(nickname) > \(nickname);
            \(note("signatures cut to \(signature) characters", "users", "length(signature) > \(signature)"))
            UPDATE users SET signature = substr(signature, 1, \(signature)) WHERE length(signature) > \(signature);
            \(note("hobby lists cut to \(hobbies) hobbies of \(hobby) characters", "users", longHobbies))
            UPDATE users SET hobbies = (SELECT json_group_array(substr(value, 1, \(hobby)))
                                        FROM (SELECT value FROM json_each(users.hobbies) ORDER BY key LIMIT \(hobbies)))
                WHERE \(longHobbies);
            \(note("friend request greetings cut to \(greeting) characters", "friend_requests", "length(greeting) > \(greeting)"))
            UPDATE friend_requests SET greeting = substr(greeting, 1, \(greeting)) WHERE length(greeting) > \(greeting);
            \(note("group and room names cut to \(stem) characters and their id", "conversations", "length(name) > \(name)"))
            UPDATE conversations SET name = substr(name, 1, \(stem)) || '~' || id, name_key = lower(substr(name, 1, \(stem))) || '~' || id
                WHERE length(name) > \(name);
            \(note("group and room descriptions cut to \(description) characters", "conversations", "length(description) > \(description)"))
            UPDATE conversations SET description = substr(description, 1, \(description)) WHERE length(description) > \(description);
            \(note("text messages cut to \(text) characters", "messages", "length(text) > \(text)"))
            UPDATE messages SET text = substr(text, 1, \(text)) WHERE length(text) > \(text);
            \(note("client ids longer than \(clientID) characters dropped", "messages", "length(client_id) > \(clientID)"))
            UPDATE messages SET client_id = NULL WHERE length(client_id) > \(clientID);
            """
    }()
}
