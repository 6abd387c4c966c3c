/// HTTP header fields in the order they came, looked up without regard to case.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as (name, value) pairs, in order, names as sent.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from (name, value) pairs.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Appends a field, keeping any with the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value of the field named `name`.
    public subscript(first name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the field named `name`, in order.
    public subscript(all name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// True if any field named `name` holds `token` in its comma-separated list
    /// (e.g. `Connection: keep-alive, Upgrade` contains the token `upgrade`).
    public func containsToken(_ token: String, in name: String) -> Bool {
        self[all: name].contains { value in
            value.split(separator: ",").contains {
                $0.trimmingSpaces().lowercasedASCII() == token.lowercasedASCII()
            }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    static func namesMatch(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercasedASCII() == b.lowercasedASCII()
    }
}

extension StringProtocol {
    /// ASCII-only lowercasing: header names and tokens are ASCII, and this avoids locale rules.
    func lowercasedASCII() -> String {
        String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let s = Substring(self)
        guard let start = s.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let end = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return s[start...end]
    }
}
