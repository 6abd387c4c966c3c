extension PostgresStoreSchema {
    /// Version 14: full-text search over message text (`MessageSearchReader`; SQLite's version
    /// 15). A `pg_trgm` GIN index answers `ILIKE '%word%'` for words of three characters or
    /// more; PostgreSQL keeps it in the same transaction as the row, and builds it for the
    /// existing messages here. `pg_trgm` is a trusted extension (PostgreSQL 13 and later),
    /// so the database's owner may create it. Trigrams of Chinese or Japanese text need a
    /// database whose `LC_CTYPE` knows those letters (e.g. `C.UTF-8`); under `C` the index
    /// skips them and such searches still answer correctly, reading the whole index.
    ///
    /// For `user.search`: who turned `findable` off, and byte-order (`COLLATE "C"`) indexes
    /// of lowercased usernames and nicknames, so a prefix is one range in any database
    /// collation.
    static let messageSearch = """
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX messages_search ON messages USING gin (text gin_trgm_ops) WHERE kind <> 'system' AND text IS NOT NULL;
        CREATE TABLE unfindable_users (
            user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE
        );
        CREATE INDEX users_by_username_prefix ON users ((username_key COLLATE "C"));
        CREATE INDEX users_by_nickname ON users ((lower(nickname) COLLATE "C"));
        """
}
