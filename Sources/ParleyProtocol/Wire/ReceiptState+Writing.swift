extension ReceiptState {
    /// The state's JSON, written by hand: a 1:1 send to a recipient who is online moves their
    /// delivered marker, and its sender is told at once (`conversation.receipt`) unless
    /// another receipt of the conversation went out within the last moment, so at a
    /// conversation's usual pace this is written once a message, where `JSONEncoder` cost
    /// thousands of instructions and dozens of allocations. Means what `JSONEncoder` writes
    /// (ids as decimal strings, absent markers left out); tests compare.
    /// Its size is counted first and the object written once into an array of exactly that
    /// size (`JSONCursor`; docs/benchmarks.md, (ap)).
    public func json() -> [UInt8] {
        // `{"conversationId":"","userId":""}`, then each marker's key and digits.
        var count = 33 + JSONWriter.decimalCount(conversationId.rawValue) + JSONWriter.decimalCount(userId.rawValue)
        if let readSeq { count += 11 + JSONWriter.decimalCount(readSeq) }           // ,"readSeq":
        if let deliveredSeq { count += 16 + JSONWriter.decimalCount(deliveredSeq) } // ,"deliveredSeq":
        return JSONCursor.array(count: count) { out in
            out.literal(#"{"conversationId":""#)
            out.decimal(conversationId.rawValue)
            out.literal(#"","userId":""#)
            out.decimal(userId.rawValue)
            out.byte(UInt8(ascii: "\""))
            if let readSeq {
                out.literal(#","readSeq":"#)
                out.decimal(readSeq)
            }
            if let deliveredSeq {
                out.literal(#","deliveredSeq":"#)
                out.decimal(deliveredSeq)
            }
            out.byte(UInt8(ascii: "}"))
        }
    }
}
