#ifndef PARLEY_CSQLITE_SHIM_H
#define PARLEY_CSQLITE_SHIM_H

#include <stddef.h>
#include <sqlite3.h>

// Swift cannot spell SQLITE_TRANSIENT (a cast of -1 to a function pointer), so the binds that
// need it live here. TRANSIENT makes SQLite copy the bytes before the call returns, which is
// what lets Swift hand it a pointer that is valid only inside a `withUnsafeBytes` closure.

/// Binds UTF-8 text, copied by SQLite. A NULL pointer (Swift's empty buffer) still binds the
/// empty string, not SQL NULL: sqlite3_bind_text64 would otherwise treat it as NULL.
static inline int parley_sqlite3_bind_text(sqlite3_stmt *statement, int index,
                                           const void *bytes, sqlite3_uint64 length) {
    static const char empty[1] = "";
    const char *text = bytes != NULL ? (const char *)bytes : empty;
    return sqlite3_bind_text64(statement, index, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/// Binds a blob, copied by SQLite. An empty blob is bound as a zero-length blob rather than
/// NULL, which sqlite3_bind_blob64 would store for a NULL pointer.
static inline int parley_sqlite3_bind_blob(sqlite3_stmt *statement, int index,
                                           const void *bytes, sqlite3_uint64 length) {
    if (bytes == NULL || length == 0) {
        return sqlite3_bind_zeroblob(statement, index, 0);
    }
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}

// sqlite3_config is variadic, which Swift cannot call.

/// Turns off SQLite's memory statistics for the whole process. With them on (the default),
/// every allocation and free inside SQLite takes a global mutex to keep the counts; nothing
/// here reads them. Takes effect only before SQLite initializes (the first open); later it
/// returns SQLITE_MISUSE and changes nothing.
static inline int parley_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// The extended result codes are macros built with `|` and `<<`, which Swift does not import.

/// A UNIQUE index refused a duplicate.
static const int parley_sqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;
/// A PRIMARY KEY refused a duplicate.
static const int parley_sqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;
/// A FOREIGN KEY constraint failed.
static const int parley_sqlite_constraint_foreignkey = SQLITE_CONSTRAINT_FOREIGNKEY;
/// A NOT NULL constraint failed.
static const int parley_sqlite_constraint_notnull = SQLITE_CONSTRAINT_NOTNULL;

#endif
