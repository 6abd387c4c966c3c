/// Writes the WebSocket frames' JSON text (docs/protocol.md): requests, responses and events
/// around data already encoded, by hand (an id and a few constant keys need no encoder).
public enum FrameWriter {
    /// `{"id":…,"op":…,"data":…}` for `operation`; nil if the parameters cannot be encoded.
    public static func request<O: APIOperation>(_ operation: O.Type, id: RequestID, _ parameters: O.Parameters) -> [UInt8]? {
        WireJSON.encode(parameters).map { request(op: O.name, id: id, dataJSON: $0) }
    }

    /// `{"id":…,"op":…,"data":…}` around data already encoded.
    public static func request(op: String, id: RequestID, dataJSON data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + op.utf8.count + 40)
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        appendID(id, to: &out)
        JSONWriter.appendLiteral(#","op":"#, to: &out)
        JSONWriter.appendString(op, to: &out)
        JSONWriter.appendLiteral(#","data":"#, to: &out)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"id":…,"ok":true,"data":…}`; `{}` as data if the value cannot be encoded.
    public static func success<T: Encodable>(_ id: RequestID?, _ value: T) -> [UInt8] {
        success(id, dataJSON: WireJSON.encode(value) ?? Array("{}".utf8))
    }

    /// `{"id":…,"ok":true,"data":…}` around data already encoded.
    public static func success(_ id: RequestID?, dataJSON data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 48)
        appendSuccess(id, dataJSON: data, to: &out)
        return out
    }

    /// Appends `{"id":…,"ok":true,"data":…}` around data already encoded to `out` (a
    /// reused buffer: no array of its own).
    public static func appendSuccess(_ id: RequestID?, dataJSON data: [UInt8], to out: inout [UInt8]) {
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        appendID(id, to: &out)
        JSONWriter.appendLiteral(#","ok":true,"data":"#, to: &out)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
    }

    /// The bytes of `{"id":…,"ok":true,"data":…}` around `dataCount` bytes of data: for a
    /// frame written in place (`writeSuccess`).
    public static func successCount(_ id: RequestID?, dataCount: Int) -> Int {
        successOpen.utf8CodeUnitCount + idCount(id) + successData.utf8CodeUnitCount + dataCount + 1
    }

    // The literals around a success and an event, each counted where it is written.
    private static let successOpen: StaticString = #"{"id":"#
    private static let successData: StaticString = #","ok":true,"data":"#
    private static let eventOpen: StaticString = #"{"event":"#
    private static let eventData: StaticString = #","data":"#

    /// Writes `{"id":…,"ok":true,"data":…}` (`successCount` bytes) around data already encoded.
    public static func writeSuccess(_ id: RequestID?, dataJSON data: [UInt8], to out: inout JSONCursor) {
        out.literal(successOpen)
        switch id {
        case nil: out.literal("null")
        case .number(let number): out.decimal(number)
        case .string(let text): out.string(text)
        }
        out.literal(successData)
        data.withUnsafeBufferPointer { out.bytes($0) }
        out.byte(UInt8(ascii: "}"))
    }

    /// The bytes `appendID` writes.
    private static func idCount(_ id: RequestID?) -> Int {
        switch id {
        case nil: 4
        case .number(let number): JSONWriter.decimalCount(number)
        case .string(let text): JSONWriter.stringCount(text)
        }
    }

    /// `{"id":…,"ok":false,"error":{…}}`
    public static func failure(_ id: RequestID?, _ error: ProtocolError) -> [UInt8] {
        var out: [UInt8] = []
        appendFailure(id, error, to: &out)
        return out
    }

    /// Appends `{"id":…,"ok":false,"error":{…}}` to `out`.
    public static func appendFailure(_ id: RequestID?, _ error: ProtocolError, to out: inout [UInt8]) {
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        appendID(id, to: &out)
        JSONWriter.appendLiteral(#","ok":false,"error":"#, to: &out)
        out.append(contentsOf: WireJSON.encode(error) ?? Array("{}".utf8))
        out.append(UInt8(ascii: "}"))
    }

    /// `{"event":…,"data":…}`; nil only if the payload cannot be encoded.
    public static func event(_ event: ServerEvent) -> [UInt8]? {
        event.dataJSON().map { self.event(name: event.name, dataJSON: $0) }
    }

    /// `{"event":…,"data":…}` around data already encoded.
    public static func event(name: String, dataJSON data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + name.utf8.count + 24)
        appendEvent(name: name, dataJSON: data, to: &out)
        return out
    }

    /// Appends `{"event":…,"data":…}` around data already encoded to `out` (a reused
    /// buffer: no array of its own).
    public static func appendEvent(name: String, dataJSON data: [UInt8], to out: inout [UInt8]) {
        JSONWriter.appendLiteral(#"{"event":"#, to: &out)
        JSONWriter.appendString(name, to: &out)
        JSONWriter.appendLiteral(#","data":"#, to: &out)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
    }

    /// The bytes of `{"event":…,"data":…}` around `dataCount` bytes of data: for a frame
    /// written in place (`writeEvent`).
    public static func eventCount(name: String, dataCount: Int) -> Int {
        eventOpen.utf8CodeUnitCount + JSONWriter.stringCount(name) + eventData.utf8CodeUnitCount + dataCount + 1
    }

    /// Writes `{"event":…,"data":…}` (`eventCount` bytes) around data already encoded.
    public static func writeEvent(name: String, dataJSON data: [UInt8], to out: inout JSONCursor) {
        out.literal(eventOpen)
        out.string(name)
        out.literal(eventData)
        data.withUnsafeBufferPointer { out.bytes($0) }
        out.byte(UInt8(ascii: "}"))
    }

    /// A request id as JSON: a number, a string, or `null` for a request that could not be read.
    public static func appendID(_ id: RequestID?, to out: inout [UInt8]) {
        switch id {
        case nil: JSONWriter.appendLiteral("null", to: &out)
        case .number(let number): JSONWriter.appendDecimal(number, to: &out)
        case .string(let text): JSONWriter.appendString(text, to: &out)
        }
    }
}
