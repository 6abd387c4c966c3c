/// Why a SASL exchange failed: a condition of RFC 6120 §6.5 and a text for the client.
public struct SASLFailure: Error, Sendable, Equatable {
    public enum Condition: String, Sendable {
        case aborted
        case encryptionRequired = "encryption-required"
        case incorrectEncoding = "incorrect-encoding"
        case invalidAuthzid = "invalid-authzid"
        case invalidMechanism = "invalid-mechanism"
        case malformedRequest = "malformed-request"
        case notAuthorized = "not-authorized"
        case temporaryAuthFailure = "temporary-auth-failure"
    }

    public var condition: Condition
    public var text: String

    public init(_ condition: Condition, _ text: String) {
        self.condition = condition
        self.text = text
    }
}
