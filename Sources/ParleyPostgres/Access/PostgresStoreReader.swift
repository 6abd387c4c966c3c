import ParleyCore

/// What a `read` closure gets: queries on a reader thread's connection, inside one read-only
/// repeatable-read transaction, so every query in the closure sees the same snapshot.
///
/// Deliberately not a `StoreWriter`, so a read closure cannot cast its way to writing (and
/// the read-only transaction would refuse anyway).
struct PostgresStoreReader: PostgresStoreQuerying {
    let connection: PostgresConnection
}
