import Testing
@testable import ParleyXMPP

@Suite struct DataFormTests {
    private func form(_ fields: [XMLElement], type: String = "submit") -> XMLElement {
        XMLElement("query", namespace: Namespace.mucOwner, [:], children: [
            XMLElement("x", namespace: Namespace.dataForms, ["type": type], children: fields),
        ])
    }

    private func field(_ name: String?, _ values: [String]) -> XMLElement {
        XMLElement("field", namespace: Namespace.dataForms, ["var": name],
                   children: values.map { XMLElement("value", namespace: Namespace.dataForms, [:], text: $0) })
    }

    @Test func fieldsAreReadByNameWithTheirValuesAndTheFirstOfARepeatedNameWins() throws {
        let parsed = try #require(DataForm(in: form([
            field("with", ["mei@example.org"]), field("tags", ["a", "b"]), field(nil, ["lost"]), field("with", ["bob@example.org"]),
            field("empty", []),
        ])))
        #expect(parsed.type == "submit")
        #expect(parsed["with"] == "mei@example.org")
        #expect(parsed.fields.map(\.name) == ["with", "tags", "empty"])
        #expect(parsed.fields[1].values == ["a", "b"])
        // A field without a value is there, empty; a field that is not there is nil.
        #expect(parsed["empty"] == "")
        #expect(parsed["start"] == nil)
    }

    @Test func aQueryWithoutAFormHasNone() {
        #expect(DataForm(in: XMLElement("query", namespace: Namespace.mam)) == nil)
    }

    @Test func aFormIsWrittenWithFieldKindsAndReadBackTheSame() throws {
        let original = DataForm(type: "form", fields: [("FORM_TYPE", ["urn:example"]), ("name", ["Tea & Cake"])])
        let element = original.element(kinds: ["FORM_TYPE": "hidden"], labels: ["name": "Name"])
        #expect(element.serialized() == "<x xmlns='jabber:x:data' type='form'><field var='FORM_TYPE' type='hidden'><value>urn:example</value></field><field var='name' label='Name'><value>Tea &amp; Cake</value></field></x>")
        let parent = XMLElement("query", namespace: Namespace.mucOwner, [:], children: [element])
        #expect(DataForm(in: parent) == original)
    }
}
