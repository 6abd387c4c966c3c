public import ParleyProtocol

/// The limit in force for every `TextField`, and the one check of free text: every service
/// that stores or relays user text (native protocol, HTTP, XMPP) validates it here.
public struct TextLimits: Sendable, Equatable {
    private var limits: [TextField: TextLimit]

    /// Every field at its default limit.
    public init() {
        limits = Dictionary(uniqueKeysWithValues: TextField.allCases.map { ($0, $0.defaultLimit) })
    }

    public subscript(field: TextField) -> TextLimit {
        get { limits[field] ?? field.defaultLimit }
        set { limits[field] = newValue }
    }

    /// Refuses `text` when it is outside the field's limit or holds characters the field
    /// does not take. The error names the field and both bounds.
    public func validate(_ text: String, as field: TextField) throws(ProtocolError) {
        let limit = self[field]
        guard limit.allows(text) else {
            let range = limit.characters.lowerBound == 0 ? "at most \(limit.characters.upperBound)"
                : "\(limit.characters.lowerBound) to \(limit.characters.upperBound)"
            throw ProtocolError(field == .name ? .invalidName : .invalidField,
                                "\(field.noun) has \(range) characters and at most \(limit.bytes) bytes",
                                field: field.wireName)
        }
        // Multi-line fields keep line breaks and tabs; no field takes other control
        // characters, which nobody types and which JSON escapes at six bytes each.
        let allowed: Set<Unicode.Scalar> = field.refusesControlCharacters ? [] : ["\n", "\r", "\t"]
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
            throw ProtocolError(field == .name ? .invalidName : .invalidField,
                                field.refusesControlCharacters ? "\(field.noun) may not contain control characters"
                                    : "\(field.noun) may not contain control characters other than line breaks and tabs",
                                field: field.wireName)
        }
    }
}
