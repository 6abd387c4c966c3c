/// A data form (XEP-0004) as the gateway reads and writes them: fields by `var`, each with
/// its values.
public struct DataForm: Sendable, Equatable {
    /// `form`, `submit`, `cancel` or `result`.
    public var type: String
    /// Field values by `var`, in the order the fields came (a repeated `var` keeps its first).
    public var fields: [(name: String, values: [String])]

    public init(type: String, fields: [(name: String, values: [String])] = []) {
        self.type = type
        self.fields = fields
    }

    /// The form inside `parent` (`<x xmlns='jabber:x:data'>`), if there is one.
    public init?(in parent: XMLElement) {
        guard let form = parent.child("x", namespace: Namespace.dataForms) else { return nil }
        type = form["type"] ?? "form"
        fields = []
        for field in form.elements where field.name == "field" {
            guard let name = field["var"], self[name] == nil else { continue }
            fields.append((name, field.elements.filter { $0.name == "value" }.map(\.text)))
        }
    }

    /// The first value of field `name`, if the form has the field.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }.map { $0.values.first ?? "" }
    }

    public static func == (a: DataForm, b: DataForm) -> Bool {
        a.type == b.type && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.values) == b.fields.map(\.values)
    }

    /// The form as an element; `kinds` gives fields a `type` (e.g. `hidden`, `boolean`).
    public func element(kinds: [String: String] = [:], labels: [String: String] = [:]) -> XMLElement {
        XMLElement("x", namespace: Namespace.dataForms, ["type": type], children: fields.map { field in
            XMLElement("field", namespace: Namespace.dataForms, ["var": field.name, "type": kinds[field.name], "label": labels[field.name]],
                       children: field.values.map { XMLElement("value", namespace: Namespace.dataForms, [:], text: $0) })
        })
    }
}
