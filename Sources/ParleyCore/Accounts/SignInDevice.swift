/// What a sign-in says of the device it comes from, for the account's device list.
struct SignInDevice: Sendable {
    var userAgent: String?
    /// The name the client gave itself, if any.
    var name: String?
    /// The client's address; empty when unknown.
    var address: String
}
