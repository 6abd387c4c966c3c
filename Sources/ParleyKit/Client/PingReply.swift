public import ParleyProtocol

/// The result of `ping` (`Op.Ping`): the server's clock, ms since the epoch.
public typealias PingReply = Pong
