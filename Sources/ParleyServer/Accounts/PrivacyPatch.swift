import ParleyProtocol

/// The `privacy` member of a `PATCH /v1/me` body: the user's privacy choices, whole (the same
/// as `privacy.set`); absent leaves them as they are.
struct PrivacyPatch: Decodable, Sendable {
    var privacy: PrivacySettings?
}
