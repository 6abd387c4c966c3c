/// How a native resource's state reads as presence children: nothing while its app is in
/// front, `<show>away</show>` while all its connections are in the background (XEP-0352's
/// native counterpart, `client.state`).
enum NativePresence {
    /// The children of the resource's available presence; empty for none (unavailable).
    static func children(_ resource: NativeResources.Resource?) -> String {
        elements(resource).map { $0.serialized() }.joined()
    }

    static func elements(_ resource: NativeResources.Resource?) -> [XMLElement] {
        guard let resource, !resource.active else { return [] }
        return [XMLElement("show", [:], text: "away")]
    }
}
