import FoundationEssentials
package import ParleyCore

/// How a user's hobbies are kept in one column by every store: a JSON array of strings. JSON
/// escapes whatever a hobby contains (commas, quotes, newlines), and both SQLite's and
/// PostgreSQL's JSON functions can read the column in queries.
package enum HobbiesCoding {
    /// The column text for `hobbies`.
    package static func encode(_ hobbies: [String]) throws(StoreError) -> String {
        guard !hobbies.isEmpty else { return "[]" }
        do {
            return String(decoding: try JSONEncoder().encode(hobbies), as: UTF8.self)
        } catch {
            throw StoreError.failure("cannot encode hobbies as JSON")
        }
    }

    /// The hobbies in column text read from disk; a value that is not a JSON array of
    /// strings is an error, not an empty list, so that damage is noticed.
    package static func decode(_ text: String, userID: Int64) throws(StoreError) -> [String] {
        if text == "[]" { return [] }
        do {
            return try JSONDecoder().decode([String].self, from: Data(text.utf8))
        } catch {
            throw StoreError.failure("user \(userID) has unreadable hobbies (not a JSON array of strings)")
        }
    }
}
