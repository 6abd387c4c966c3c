/// The version Parley reports in `/healthz`, `--version` and logs.
public enum ParleyVersion {
    public static let current = "0.1.0"
}
