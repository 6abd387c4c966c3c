public import ParleyProtocol

/// A device's name as people read it, in the reader's language, worded as the web client
/// words it (its `deviceLabel`). The server names a device it was given no name for "Chrome on
/// Linux"; a native device's resource is its name, spaces and punctuation kept, with the
/// session's tag after a dot ("Chrome on Linux.k3f9x2"). Only what is shown changes: the
/// resource stays what it is.
public enum DeviceNameText {
    /// The browsers the server names a device after when it was given no name (ParleyCore's
    /// `DeviceName`, from the User-Agent), as the web client's `resources.js` lists them.
    static let madeUpBrowsers: Set<String> = ["Edge", "Opera", "Firefox", "Chromium", "Chrome", "Safari"]
    /// The systems of those names.
    static let madeUpSystems: Set<String> = ["Android", "iPhone", "iPad", "Windows", "macOS", "ChromeOS", "Linux"]

    /// A name the server made up from the browser, "Chrome on Linux", in the reader's language
    /// ("Linux 上的 Chrome"); a name the user typed ("Bob on holiday") as typed. The wire says
    /// nothing of who chose a name: a made-up one is exactly "<browser> on <system>" of
    /// `madeUpBrowsers` and `madeUpSystems`.
    public static func text(deviceName: String, language: ParleyLanguage) -> String {
        guard language == .chinese, let on = deviceName.range(of: " on ") else { return deviceName }
        let browser = String(deviceName[..<on.lowerBound])
        let system = String(deviceName[on.upperBound...])
        guard madeUpBrowsers.contains(browser), madeUpSystems.contains(system) else { return deviceName }
        return "\(system) 上的 \(browser)"
    }

    /// A native device's resource without its tag ("Bob's iPhone.k3f9x2" reads "Bob's iPhone",
    /// spaces and punctuation as the device's name has them); a Jabber client's resource (the
    /// name its user chose) as it is.
    public static func text(for resource: ResourcePresence, language: ParleyLanguage) -> String {
        guard resource.client == ResourcePresence.parleyClient, let dot = resource.resource.lastIndex(of: ".") else {
            return resource.resource
        }
        let name = String(resource.resource[..<dot])
        return name.allSatisfy(\.isWhitespace) ? resource.resource : text(deviceName: name, language: language)
    }
}
