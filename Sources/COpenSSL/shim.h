#ifndef PARLEY_COPENSSL_SHIM_H
#define PARLEY_COPENSSL_SHIM_H

// libcrypto only: the SHA digests, HMAC and PBKDF2 that SCRAM (RFC 5802, RFC 7677) needs,
// and its random generator for SCRAM nonces and salts.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>

#endif
