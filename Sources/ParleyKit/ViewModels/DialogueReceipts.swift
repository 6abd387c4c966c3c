public import ParleyProtocol

/// Where one of the reader's own messages has got to (the ticks of a 1:1 bubble).
public enum MessageDeliveryState: String, Sendable, Equatable {
    /// Stored by the server (one tick).
    case sent
    /// Reached one of the other person's devices (two ticks).
    case delivered
    /// The other person read it (two coloured ticks).
    case read
}

/// The ticks of the reader's messages and who is typing, in one open conversation, kept from
/// the other person's markers (not per message) and the `typing` events.
public struct DialogueReceipts: Sendable, Equatable {
    /// The other person's delivered marker (1:1).
    public private(set) var peerDeliveredSeq: Int64 = 0
    /// The other person's read marker (1:1; stays 0 when either side keeps read receipts off).
    public private(set) var peerReadSeq: Int64 = 0
    /// Who is typing now, in the order they started.
    public private(set) var typing: [UserID] = []

    public init() {}

    /// Markers as a history page or the cached summary tell them (never moving back).
    mutating func adopt(read: Int64?, delivered: Int64?) {
        peerReadSeq = max(peerReadSeq, read ?? 0)
        peerDeliveredSeq = max(peerDeliveredSeq, delivered ?? 0, peerReadSeq)
    }

    /// A `conversation.receipt` event: the markers move on.
    public mutating func apply(_ receipt: ReceiptState) {
        adopt(read: receipt.readSeq, delivered: receipt.deliveredSeq)
    }

    /// A typing event; true if the list changed.
    @discardableResult
    public mutating func apply(_ notice: TypingNotice) -> Bool {
        if notice.typing {
            guard !typing.contains(notice.userId) else { return false }
            typing.append(notice.userId)
            return true
        }
        return stoppedTyping(notice.userId)
    }

    /// A message from someone ends their typing (their `typing.stop` may come later or not at all).
    mutating func stoppedTyping(_ user: UserID) -> Bool {
        guard let index = typing.firstIndex(of: user) else { return false }
        typing.remove(at: index)
        return true
    }

    /// The ticks of `message` if it is the reader's own in a 1:1 conversation; nil otherwise.
    public func state(of message: Message, me: UserID?, kind: ConversationKind?) -> MessageDeliveryState? {
        guard message.kind != .system, let me else { return nil }
        return state(seq: message.seq, isMine: message.sender == me, kind: kind)
    }

    /// The ticks of the message at `seq` if it is the reader's own (`isMine`) in a 1:1
    /// conversation; nil otherwise.
    public func state(seq: Int64, isMine: Bool, kind: ConversationKind?) -> MessageDeliveryState? {
        guard kind == .user, isMine, seq > 0 else { return nil }
        if seq <= peerReadSeq { return .read }
        return seq <= peerDeliveredSeq ? .delivered : .sent
    }

    /// "Alice is typing…", "Alice and Bob are typing…", "Alice and 2 others are typing…"; nil
    /// when nobody is.
    public func typingLine(language: ParleyLanguage, name: (UserID) -> String) -> String? {
        guard let first = typing.first else { return nil }
        let lead = name(first)
        switch typing.count {
        case 1:
            return language.pick("\(lead) is typing…", "\(lead) 正在输入…")
        case 2:
            let second = name(typing[1])
            return language.pick("\(lead) and \(second) are typing…", "\(lead) 和 \(second) 正在输入…")
        default:
            let others = typing.count - 1
            return language.pick("\(lead) and \(others) others are typing…", "\(lead) 等 \(typing.count) 人正在输入…")
        }
    }
}
