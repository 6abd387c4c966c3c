extension String {
    /// Whether a byte of the string's UTF-8 passes `test`. Every stanza's addresses and
    /// attribute values are scanned so (JIDs' lowercasing, escaping): a native string's bytes
    /// are read as one buffer, not through the UTF-8 view's index per byte; another string
    /// (bridged or shared) through the view.
    func containsUTF8Byte(where test: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? utf8.contains(where: test)
    }
}
