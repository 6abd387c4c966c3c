import ParleyStoreSupport

/// PostgreSQL rows read by the records' shared initializers (`ParleyStoreSupport/Rows`).
extension PostgresRow: StoreRow {}
