/// Why `PasswordHasher` refused a password or a configuration.
public enum PasswordHasherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The password is longer than the hasher accepts, in UTF-8 bytes.
    case passwordTooLong(maximumBytes: Int)
    /// An argon2id cost is outside what libsodium accepts.
    case costOutOfRange(name: String, value: Int, allowed: ClosedRange<Int>)
    /// libsodium could not hash: in practice, it could not allocate the memory cost.
    case hashingFailed

    /// A message for logs; it never contains the password.
    public var description: String {
        switch self {
        case .passwordTooLong(let maximumBytes):
            return "password longer than \(maximumBytes) bytes"
        case let .costOutOfRange(name, value, allowed):
            return "argon2id \(name) \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .hashingFailed:
            return "password hashing failed (out of memory?)"
        }
    }
}
