extension ReceiptState {
    /// The state's JSON, written by hand: a 1:1 send to a recipient who is online moves their
    /// delivered marker, and its sender is told at once (`conversation.receipt`) unless
    /// another receipt of the conversation went out within the last moment, so at a
    /// conversation's usual pace this is written once a message, where `JSONEncoder` cost
    /// thousands of instructions and dozens of allocations. Means what `JSONEncoder` writes
    /// (ids as decimal strings, absent markers left out); tests compare.
    public func json() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(112)
        JSONWriter.appendLiteral(#"{"conversationId":""#, to: &out)
        JSONWriter.appendDecimal(conversationId.rawValue, to: &out)
        JSONWriter.appendLiteral(#"","userId":""#, to: &out)
        JSONWriter.appendDecimal(userId.rawValue, to: &out)
        out.append(UInt8(ascii: "\""))
        if let readSeq {
            JSONWriter.appendLiteral(#","readSeq":"#, to: &out)
            JSONWriter.appendDecimal(readSeq, to: &out)
        }
        if let deliveredSeq {
            JSONWriter.appendLiteral(#","deliveredSeq":"#, to: &out)
            JSONWriter.appendDecimal(deliveredSeq, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
