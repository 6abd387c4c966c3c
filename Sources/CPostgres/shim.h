#ifndef PARLEY_CPOSTGRES_SHIM_H
#define PARLEY_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

// The error-field codes of PQresultErrorField are character-literal macros, which Swift does
// not import; these constants carry them across.

/// The five-character SQLSTATE of an error ("23505" is a unique violation).
static const int parley_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
/// The primary, human-readable message.
static const int parley_pg_diag_message = PG_DIAG_MESSAGE_PRIMARY;
/// The constraint an integrity error broke, by name.
static const int parley_pg_diag_constraint = PG_DIAG_CONSTRAINT_NAME;

#endif
