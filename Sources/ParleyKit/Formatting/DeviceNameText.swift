public import ParleyProtocol

/// A device's name as people read it, in the reader's language, worded as the web client
/// words it. The server names a device it was given no name for "Chrome on Linux"; a native
/// device's resource is that name made safe for Jabber with the session's tag after a dot
/// ("Chrome-on-Linux.k3f9x2"). Only what is shown changes: the resource stays what it is.
public enum DeviceNameText {
    /// "Chrome on Linux" in English, "Linux 上的 Chrome" in Chinese; any other name as it is.
    public static func text(deviceName: String, language: ParleyLanguage) -> String {
        guard language == .chinese, let on = deviceName.range(of: " on "),
              on.lowerBound > deviceName.startIndex, on.upperBound < deviceName.endIndex else { return deviceName }
        return "\(deviceName[on.upperBound...]) 上的 \(deviceName[..<on.lowerBound])"
    }

    /// A native device's resource without its tag and with spaces ("Chrome on Linux"); a
    /// Jabber client's resource (the name its user chose) as it is.
    public static func text(for resource: ResourcePresence, language: ParleyLanguage) -> String {
        guard resource.client == ResourcePresence.parleyClient else { return resource.resource }
        var name = resource.resource
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        let words = name.split(separator: "-", omittingEmptySubsequences: true).joined(separator: " ")
        return words.isEmpty ? resource.resource : text(deviceName: words, language: language)
    }
}
