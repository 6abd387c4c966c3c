import CParleySystem

/// What a descriptor is watched for, or what fired on it: the epoll bits as a set, so code
/// reads `events.contains(.writable)` instead of masking raw numbers.
struct IOEvents: OptionSet, Equatable {
    let rawValue: UInt32

    /// Input is ready to read (`EPOLLIN`).
    static let readable = IOEvents(rawValue: UInt32(EPOLLIN.rawValue))
    /// The socket takes more output (`EPOLLOUT`).
    static let writable = IOEvents(rawValue: UInt32(EPOLLOUT.rawValue))
    /// The peer shut down its side of the stream (`EPOLLRDHUP`); a read returns what is left.
    static let readHangup = IOEvents(rawValue: UInt32(EPOLLRDHUP.rawValue))
    /// Both directions are gone (`EPOLLHUP`); always reported, never asked for.
    static let hangup = IOEvents(rawValue: UInt32(EPOLLHUP.rawValue))
    /// An error is pending on the descriptor (`EPOLLERR`, read with `SO_ERROR`); always reported.
    static let error = IOEvents(rawValue: UInt32(EPOLLERR.rawValue))

    /// What a reader asks for: input, and the peer's end of stream.
    static let reading: IOEvents = [.readable, .readHangup]
    /// Anything that means there is something to read, or an end to read.
    static let input: IOEvents = [.readable, .readHangup, .hangup]
}
