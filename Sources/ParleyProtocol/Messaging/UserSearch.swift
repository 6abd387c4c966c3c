/// `user.search`: people whose username or nickname starts with `prefix` (without regard to
/// case), for the add-friend dialog. People who turned `findable` off never appear.
public struct UserSearchParameters: Codable, Sendable {
    public var prefix: String
    /// Profiles wanted (at most `--max-user-search-page`).
    public var limit: Int?

    public init(prefix: String, limit: Int? = nil) {
        self.prefix = prefix
        self.limit = limit
    }
}

/// `user.findable`: whether others find the caller by `user.search`. Absent `findable` only
/// reads the setting; the answer is the setting now.
public struct FindableSetting: Codable, Sendable, Equatable {
    public var findable: Bool?

    public init(findable: Bool?) {
        self.findable = findable
    }
}
