import ParleyNet

/// `utf8`: `UTF8Validator` against the standard library.
///
/// Invariants: `isValid` agrees with `String(validating:as:)` on the whole input, through
/// both `validate` overloads; fed in pieces, the validator refuses in exactly the piece
/// that holds the first byte no valid text can continue with, and never before; `finish`
/// agrees with the whole-input answer and leaves the validator ready for a new text.
enum UTF8Harness {
    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        let expected = UTF8Oracle.isValid(bytes)
        try InvariantFailure.expect(UTF8Validator.isValid(bytes) == expected, "isValid says \(!expected), the standard library \(expected)")
        // The generic overload on a non-contiguous sequence takes the copying path.
        try InvariantFailure.expect(UTF8Validator.isValid(bytes.lazy.map { $0 }) == expected, "isValid on a lazy sequence disagrees")
        // Round trip: the decoded string re-encodes to the same bytes exactly when valid.
        try InvariantFailure.expect((Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes) == expected,
                                    "String(decoding:) round trip disagrees")

        let refuseAt = UTF8Oracle.validPrefixLength(bytes)
        for pieces in InputSplitter.splits(bytes) {
            var validator = UTF8Validator()
            var offset = 0
            for piece in pieces {
                let ok = piece.withUnsafeBytes { validator.validate($0) }
                let end = offset + piece.count
                // Refused if and only if the piece holds the first bad byte, or comes later.
                try InvariantFailure.expect(ok == (refuseAt >= end), """
                    validate returned \(ok) for bytes \(offset)..<\(end); the first byte no text can \
                    continue with is at \(refuseAt)
                    """)
                try InvariantFailure.expect(validator.isValid == ok, "isValid \(validator.isValid) after validate returned \(ok)")
                offset = end
            }
            try InvariantFailure.expect(validator.isComplete == expected, "isComplete \(validator.isComplete), expected \(expected)")
            try InvariantFailure.expect(validator.finish() == expected, "finish disagrees with the whole-input answer")
            try InvariantFailure.expect(validator.isValid && validator.isComplete, "finish did not reset the validator")
        }
    }
}
