public import ParleyCore

/// The columns of user text that the length limits in Unicode scalars and bytes (`TextLimits`)
/// came after, and the limits a store's clipping migration cuts them to: the defaults of
/// their `TextField`s (every default byte limit is four times its character limit, so cutting
/// to the characters keeps the bytes within bounds too; both SQLite's and PostgreSQL's
/// `length` count characters as code points, which are Unicode scalars).
///
/// Before those limits, lengths were counted in grapheme clusters, so one "character" could
/// hold megabytes; the migration makes every stored value one the server would now accept,
/// and records what it changed in `migration_notes` for the server to log.
public enum TextClipping {
    /// The characters a field's stored values are cut to.
    public static func limit(_ field: TextField) -> Int { field.defaultLimit.characters.upperBound }

    /// Most hobbies a profile keeps (`AccountRules.maxHobbies`' default).
    public static let maxHobbies = AccountRules().maxHobbies

    /// A name too long is cut and given its conversation's id, so it stays unique.
    public static var nameStem: Int { limit(.name) - 12 }
}
