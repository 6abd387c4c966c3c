/// One field of a partial update: left alone when absent, cleared by `null`, set otherwise.
public enum FieldPatch<Value: Codable & Sendable & Equatable>: Sendable, Equatable {
    case unchanged
    case clear
    case set(Value)

    /// The new value for a field whose current value is `current`.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .unchanged: return current
        case .clear: return nil
        case .set(let value): return value
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a patch field: absent → `.unchanged`, `null` → `.clear`, a value → `.set`.
    public func decodePatch<V>(_ type: V.Type, forKey key: Key) throws -> FieldPatch<V> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .clear }
        return .set(try decode(V.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// Encodes a patch field the way `decodePatch` reads it.
    public mutating func encodePatch<V>(_ patch: FieldPatch<V>, forKey key: Key) throws {
        switch patch {
        case .unchanged: return
        case .clear: try encodeNil(forKey: key)
        case .set(let value): try encode(value, forKey: key)
        }
    }
}
