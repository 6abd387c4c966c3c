/// A flag or environment variable `parley serve` could not accept.
public enum ConfigurationError: Error, Equatable, CustomStringConvertible {
    case unknownFlag(String)
    case missingValue(flag: String)
    case unexpectedArgument(String)
    case invalidValue(flag: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknownFlag(let flag): return "unknown option \(flag) (see parley serve --help)"
        case .missingValue(let flag): return "--\(flag) needs a value"
        case .unexpectedArgument(let argument): return "unexpected argument '\(argument)'"
        case .invalidValue(let flag, let value, let expected): return "--\(flag) '\(value)': expected \(expected)"
        }
    }
}
