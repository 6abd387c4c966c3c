import CHTTPParser

/// The C callbacks of the request parser. Each finds its decoder through `parser.data`
/// and returns non-zero (after setting `pendingError`) to stop the parser.
extension HTTPRequestDecoder {
    static let settings: http_parser_settings = {
        var settings = http_parser_settings()
        http_parser_settings_init(&settings)
        settings.on_message_begin = { parser in
            guard let decoder = HTTPRequestDecoder.from(parser) else { return 1 }
            decoder.messageBegan()
            return 0
        }
        settings.on_url = { parser, at, length in
            guard let decoder = HTTPRequestDecoder.from(parser), let at else { return 1 }
            return decoder.url(UnsafeRawBufferPointer(start: at, count: length)) ? 0 : 1
        }
        settings.on_header_field = { parser, at, length in
            guard let decoder = HTTPRequestDecoder.from(parser), let at else { return 1 }
            return decoder.headerField(UnsafeRawBufferPointer(start: at, count: length)) ? 0 : 1
        }
        settings.on_header_value = { parser, at, length in
            guard let decoder = HTTPRequestDecoder.from(parser), let at else { return 1 }
            return decoder.headerValue(UnsafeRawBufferPointer(start: at, count: length)) ? 0 : 1
        }
        settings.on_headers_complete = { parser in
            guard let decoder = HTTPRequestDecoder.from(parser) else { return -1 }
            decoder.headersCompleted()
            return 0
        }
        settings.on_body = { parser, at, length in
            guard let decoder = HTTPRequestDecoder.from(parser), let at else { return 1 }
            return decoder.bodyPiece(UnsafeRawBufferPointer(start: at, count: length)) ? 0 : 1
        }
        settings.on_message_complete = { parser in
            guard let decoder = HTTPRequestDecoder.from(parser) else { return 1 }
            return decoder.messageComplete() ? 0 : 1
        }
        return settings
    }()

    private static func from(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTPRequestDecoder? {
        guard let data = parser?.pointee.data else { return nil }
        return Unmanaged<HTTPRequestDecoder>.fromOpaque(data).takeUnretainedValue()
    }

    private func refuse(_ error: HTTPDecodeError) -> Bool {
        pendingError = error
        return false
    }

    private func url(_ piece: UnsafeRawBufferPointer) -> Bool {
        if uri.count + piece.count > limits.maxURILength { return refuse(.uriTooLong) }
        if let end = piece.baseAddress, !headFits(upTo: end.assumingMemoryBound(to: CChar.self) + piece.count) {
            return refuse(.headerTooLarge)
        }
        uri.append(contentsOf: piece)
        return true
    }

    private func headerField(_ piece: UnsafeRawBufferPointer) -> Bool {
        if case .body = state { return trailer(piece) }
        if let end = piece.baseAddress, !headFits(upTo: end.assumingMemoryBound(to: CChar.self) + piece.count) {
            return refuse(.headerTooLarge)
        }
        if let error = fields.appendName(piece) { return refuse(error) }
        return true
    }

    private func headerValue(_ piece: UnsafeRawBufferPointer) -> Bool {
        if case .body = state { return trailer(piece) }
        if let end = piece.baseAddress, !headFits(upTo: end.assumingMemoryBound(to: CChar.self) + piece.count) {
            return refuse(.headerTooLarge)
        }
        if let error = fields.appendValue(piece) { return refuse(error) }
        return true
    }

    /// Trailer fields of a chunked body are dropped (nothing in Parley uses them), but
    /// their bytes count against `maxHeaderBytes` so that they cannot go on forever.
    private func trailer(_ piece: UnsafeRawBufferPointer) -> Bool {
        trailerBytes += piece.count
        return trailerBytes <= limits.maxHeaderBytes ? true : refuse(.headerTooLarge)
    }

    private func bodyPiece(_ piece: UnsafeRawBufferPointer) -> Bool {
        if let file = bodyFile {
            // Chunked bodies declare no length: the limit is checked as the bytes come.
            if file.size + piece.count > file.limit { return refuse(.bodyTooLarge) }
            return file.write(piece) ? true : refuse(.bodyNotStored)
        }
        if body.count + piece.count > limits.maxBodyBytes { return refuse(.bodyTooLarge) }
        body.append(contentsOf: piece)
        return true
    }
}
