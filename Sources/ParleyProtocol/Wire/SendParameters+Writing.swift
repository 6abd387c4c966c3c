extension SendParameters {
    /// The parameters' JSON, written by hand: the request every client sends most (and
    /// parley-bench at its full rate). Means what `JSONEncoder` writes; tests compare.
    public func json() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(80 + clientId.utf8.count + (text?.utf8.count ?? 0) + (mediaId?.utf8.count ?? 0))
        JSONWriter.appendLiteral(#"{"conversationId":""#, to: &out)
        JSONWriter.appendDecimal(conversationId.rawValue, to: &out)
        JSONWriter.appendLiteral(#"","clientId":"#, to: &out)
        JSONWriter.appendString(clientId, to: &out)
        JSONWriter.appendLiteral(#","kind":"#, to: &out)
        JSONWriter.appendString(kind.rawValue, to: &out)
        if let text {
            JSONWriter.appendLiteral(#","text":"#, to: &out)
            JSONWriter.appendString(text, to: &out)
        }
        if let mediaId {
            JSONWriter.appendLiteral(#","mediaId":"#, to: &out)
            JSONWriter.appendString(mediaId, to: &out)
        }
        // A file message's name: without it the server names every file from ParleyKit "file".
        if let name {
            JSONWriter.appendLiteral(#","name":"#, to: &out)
            JSONWriter.appendString(name, to: &out)
        }
        if let replyTo {
            JSONWriter.appendLiteral(#","replyTo":"#, to: &out)
            JSONWriter.appendString(replyTo, to: &out)
        }
        if let mentions {
            JSONWriter.appendLiteral(#","mentions":["#, to: &out)
            for (index, id) in mentions.enumerated() {
                JSONWriter.appendLiteral(index == 0 ? #"""# : #",""#, to: &out)
                JSONWriter.appendDecimal(id.rawValue, to: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let mentionsAll {
            JSONWriter.appendLiteral(mentionsAll ? #","mentionsAll":true"# : #","mentionsAll":false"#, to: &out)
        }
        if let durationMs {
            JSONWriter.appendLiteral(#","durationMs":"#, to: &out)
            JSONWriter.appendDecimal(Int64(durationMs), to: &out)
        }
        if let waveform {
            JSONWriter.appendLiteral(#","waveform":["#, to: &out)
            for (index, value) in waveform.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendDecimal(Int64(value), to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
