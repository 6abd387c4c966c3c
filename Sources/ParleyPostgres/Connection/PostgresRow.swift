import ParleyCore

/// One row of a `PostgresResult`, read by column index. Values come in PostgreSQL's binary
/// format: integers big-endian, text as UTF-8, `bytea` as the bytes themselves, `jsonb` as a
/// version byte and then the JSON text. A value of a type the accessor cannot read, or a
/// NULL where one is not allowed, is an error: damage is reported, never papered over.
struct PostgresRow {
    /// Type ids (`pg_type.oid`) of the types Parley reads.
    private enum TypeID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let json: UInt32 = 114
        static let varchar: UInt32 = 1043
        static let jsonb: UInt32 = 3802
    }

    let result: PostgresResult
    let index: Int32

    func isNull(_ column: Int) -> Bool {
        result.isNull(row: index, column: Int32(column))
    }

    func int64(_ column: Int) throws(StoreError) -> Int64 {
        let bytes = try value(column)
        let type = result.type(column: Int32(column))
        let width: Int
        switch type {
        case TypeID.int8: width = 8
        case TypeID.int4: width = 4
        case TypeID.int2: width = 2
        default: throw mismatch(column, "an integer", type)
        }
        guard bytes.count == width else { throw malformed(column) }
        // Big-endian two's complement; sign-extended from the top byte.
        var value = Int64(Int8(bitPattern: bytes[0]))
        for byte in bytes.dropFirst() {
            value = value << 8 | Int64(byte)
        }
        return value
    }

    func int(_ column: Int) throws(StoreError) -> Int {
        Int(try int64(column))
    }

    func bool(_ column: Int) throws(StoreError) -> Bool {
        let bytes = try value(column)
        let type = result.type(column: Int32(column))
        guard type == TypeID.bool else { throw mismatch(column, "a boolean", type) }
        guard bytes.count == 1 else { throw malformed(column) }
        return bytes[0] != 0
    }

    func string(_ column: Int) throws(StoreError) -> String {
        let bytes = try value(column)
        let type = result.type(column: Int32(column))
        switch type {
        case TypeID.text, TypeID.varchar, TypeID.json:
            return String(decoding: bytes, as: UTF8.self)
        case TypeID.jsonb:
            guard bytes.first == 1 else { throw malformed(column) }
            return String(decoding: bytes.dropFirst(), as: UTF8.self)
        default:
            throw mismatch(column, "text", type)
        }
    }

    func bytes(_ column: Int) throws(StoreError) -> [UInt8] {
        let bytes = try value(column)
        let type = result.type(column: Int32(column))
        guard type == TypeID.bytea else { throw mismatch(column, "bytes", type) }
        return Array(bytes)
    }

    // MARK: NULL-able columns

    func optionalInt64(_ column: Int) throws(StoreError) -> Int64? {
        isNull(column) ? nil : try int64(column)
    }

    func optionalInt(_ column: Int) throws(StoreError) -> Int? {
        isNull(column) ? nil : try int(column)
    }

    func optionalString(_ column: Int) throws(StoreError) -> String? {
        isNull(column) ? nil : try string(column)
    }

    // MARK: Helpers

    private func value(_ column: Int) throws(StoreError) -> UnsafeRawBufferPointer {
        guard column >= 0 && column < result.columnCount else {
            throw StoreError.failure("a query read column \(column) of a row with \(result.columnCount)")
        }
        guard !isNull(column) else {
            throw StoreError.failure("column \(column) is NULL where a value is required")
        }
        return result.bytes(row: index, column: Int32(column))
    }

    private func mismatch(_ column: Int, _ wanted: String, _ type: UInt32) -> StoreError {
        .failure("column \(column) holds type \(type), not \(wanted)")
    }

    private func malformed(_ column: Int) -> StoreError {
        .failure("column \(column) holds a malformed binary value")
    }
}
