import CParleySystem

/// The process's limit on open descriptors, which bounds how many connections it can hold.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one (what an unprivileged process may do) and
    /// returns the limit now in force. Every connection costs a descriptor, so a server calls
    /// this once at start and sizes its connection ceiling from the answer.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        Int(parley_raise_nofile_limit())
    }
}
