#ifndef PARLEY_COPENSSL_SHIM_H
#define PARLEY_COPENSSL_SHIM_H

// libcrypto: the SHA digests, HMAC and PBKDF2 that SCRAM (RFC 5802, RFC 7677) needs, and its
// random generator for nonces and salts. libssl: STARTTLS for XMPP streams, over memory BIOs
// (the event loop moves the bytes; OpenSSL never touches the socket).
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>

// Macros Swift cannot import, as functions.
static inline int parley_ssl_ctx_require_tls12(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

static inline int parley_ssl_filetype_pem(void) {
    return SSL_FILETYPE_PEM;
}

static inline long parley_bio_pending(BIO *bio) {
    return (long)BIO_ctrl_pending(bio);
}

#endif
