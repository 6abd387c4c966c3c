/// A user's numeric id (seed 000's `xid`); a decimal string on the wire.
public struct UserID: NumericIdentifier {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}
