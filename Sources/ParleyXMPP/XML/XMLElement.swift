/// One XML element of a stanza: a name in a namespace, attributes in their order, and
/// children. Values are plain text (unescaped); `serialized` escapes them.
public struct XMLElement: Sendable, Equatable {
    /// The local name (without a prefix).
    public var name: String
    /// The namespace URI; empty for none.
    public var namespace: String
    /// Attributes in document order. `xml:lang` keeps its prefix; other namespaced attributes
    /// are reduced to their local names (XMPP uses none that matter here).
    public var attributes: [XMLAttribute]
    /// Elements and text, in document order.
    public var children: [XMLNode]

    /// The default namespace of a client stream's stanzas.
    public static let clientNamespace = "jabber:client"

    public init(_ name: String, namespace: String = clientNamespace, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    /// An element with attributes given as pairs (nil values are left out) and optional text.
    public init(_ name: String, namespace: String = clientNamespace, _ pairs: KeyValuePairs<String, String?>, text: String? = nil,
                children: [XMLElement] = []) {
        self.name = name
        self.namespace = namespace
        attributes = pairs.compactMap { key, value in value.map { XMLAttribute(name: key, value: $0) } }
        self.children = children.map { .element($0) }
        if let text { self.children.append(.text(text)) }
    }

    /// The value of the attribute `name`, if present.
    public subscript(attribute: String) -> String? {
        get { attributes.first { $0.name == attribute }?.value }
        set {
            attributes.removeAll { $0.name == attribute }
            if let newValue { attributes.append(XMLAttribute(name: attribute, value: newValue)) }
        }
    }

    /// The child elements.
    public var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { return element } else { return nil } }
    }

    /// The first child element named `name` in `namespace` (any namespace when nil). Looked
    /// for among the children in place: a message's handling asks for several children, and
    /// `elements` would make an array each time.
    public func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        for case .element(let element) in children where element.name == name && (namespace == nil || element.namespace == namespace) {
            return element
        }
        return nil
    }

    /// The concatenated text children.
    public var text: String {
        children.reduce(into: "") { text, node in if case .text(let part) = node { text += part } }
    }

    /// Appends a child element.
    public mutating func append(_ element: XMLElement) {
        children.append(.element(element))
    }
}

/// A name and its (unescaped) value.
public struct XMLAttribute: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A child of an element.
public enum XMLNode: Sendable, Equatable {
    case element(XMLElement)
    case text(String)
}
