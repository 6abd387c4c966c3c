#ifndef PARLEY_COPENSSL_SHIM_H
#define PARLEY_COPENSSL_SHIM_H

// libssl: TLS for every listener and client connection, over memory BIOs (the event loop
// moves the bytes; OpenSSL never touches the socket). libcrypto: the SHA digests, HMAC and
// PBKDF2 that XMPP's SCRAM (RFC 5802, RFC 7677) needs, and its random generator. Only
// ParleyNet imports this module.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

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

// An idle connection then holds no read or write record buffers (about 34 KiB each side
// otherwise); they come back on the next record.
static inline long parley_ssl_ctx_release_buffers(SSL_CTX *ctx) {
    return SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

static inline int parley_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// ALPN on the server: picks the first of our protocols (wire format, `arg`) that the client
// offers; when none matches, the handshake goes on without ALPN (older clients send none).
static int parley_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                              const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    const unsigned char *ours = (const unsigned char *)arg;
    unsigned int ourlen = (unsigned int)strlen((const char *)ours);
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, ours, ourlen, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

// `protocols` is ALPN wire format, NUL-terminated, and must outlive the context.
static inline void parley_ssl_ctx_set_alpn_select(SSL_CTX *ctx, const unsigned char *protocols) {
    SSL_CTX_set_alpn_select_cb(ctx, parley_alpn_select, (void *)protocols);
}

static inline void parley_ssl_ctx_verify_peer(SSL_CTX *ctx) {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
}

static inline int parley_ssl_set_ip(SSL *ssl, const char *address) {
    return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address);
}

static inline int parley_ssl_set_host(SSL *ssl, const char *host) {
    return SSL_set1_host(ssl, host);
}

static inline long parley_bio_get_mem_ptr(BIO *bio, BUF_MEM **memory) {
    return BIO_get_mem_ptr(bio, memory);
}

static inline long parley_ssl_verify_result(const SSL *ssl) {
    return SSL_get_verify_result(ssl);
}

#endif
