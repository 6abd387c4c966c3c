import CHTTPParser

extension HTTPDecodeError {
    /// Maps an http_parser error number to a refusal. Header overflow is a limit (431);
    /// everything else http_parser rejects is malformed input (400), with the parser's own
    /// error name as the reason (`HPE_INVALID_METHOD` becomes `invalid_method`).
    init(parserErrno: UInt32) {
        if parserErrno == HPE_HEADER_OVERFLOW.rawValue {
            self = .headerTooLarge
            return
        }
        var reason = "malformed_request"
        if let name = http_errno_name(http_errno(rawValue: parserErrno)) {
            let text = String(cString: name)
            reason = (text.hasPrefix("HPE_") ? String(text.dropFirst(4)) : text).lowercasedASCII()
        }
        self = .malformed(reason)
    }
}
