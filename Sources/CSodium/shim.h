#ifndef PARLEY_CSODIUM_SHIM_H
#define PARLEY_CSODIUM_SHIM_H

// libsodium has no variadic functions and exposes its sizes and limits as functions
// (crypto_pwhash_strbytes() and the like), so Swift needs nothing beyond the header.
#include <sodium.h>

#endif
