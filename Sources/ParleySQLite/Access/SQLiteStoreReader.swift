import ParleyCore
import ParleySQL

/// What a `read` closure gets: queries on a reader thread's read-only connection, inside one
/// read transaction so that every query in the closure sees the same snapshot.
///
/// Deliberately not a `StoreWriter`, so a read closure cannot cast its way to writing (and
/// the connection would refuse anyway).
struct SQLiteStoreReader: SQLiteStoreQuerying {
    let connection: SQLiteConnection
}
