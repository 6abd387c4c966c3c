/// `client.state`: whether the connection's app is in front of its user (`active`) or in
/// the background (`inactive`). A user whose every connection is inactive gets push
/// notifications as if they were offline. A new connection is active.
public struct ClientStateParameters: Codable, Sendable, Equatable {
    /// `active` or `inactive`.
    public enum State: String, Codable, Sendable { case active, inactive }

    public var state: State

    public init(state: State) {
        self.state = state
    }
}
