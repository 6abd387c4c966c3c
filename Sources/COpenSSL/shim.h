#ifndef PARLEY_COPENSSL_SHIM_H
#define PARLEY_COPENSSL_SHIM_H

// libssl: TLS for every listener and client connection, over memory BIOs (the event loop
// moves the bytes; OpenSSL never touches the socket). libcrypto: the SHA digests, HMAC and
// PBKDF2 that XMPP's SCRAM (RFC 5802, RFC 7677) needs, its random generator, and P-256,
// HKDF and AES-128-GCM for Web Push (RFC 8291, RFC 8292). Only ParleyNet imports this module.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
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

// --- P-256, HKDF and AES-128-GCM (Web Push). Each helper is glue around OpenSSL calls that
// Swift cannot make directly (variadic `EVP_EC_gen`, OSSL_PARAM builders, control macros);
// the primitives are all OpenSSL's.

static inline EVP_PKEY *parley_p256_generate(void) {
    return EVP_EC_gen("P-256");
}

// A P-256 key from its raw parts: the uncompressed public point (65 bytes) and, for a key
// pair, the private scalar (32 bytes; NULL for a public key alone). OpenSSL refuses a point
// that is not on the curve.
static inline EVP_PKEY *parley_p256_from_raw(const unsigned char *priv, const unsigned char *pub, size_t publen) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *scalar = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    EVP_PKEY *key = NULL;
    if (bld == NULL) return NULL;
    if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)) goto done;
    if (!OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, publen)) goto done;
    if (priv != NULL) {
        scalar = BN_bin2bn(priv, 32, NULL);
        if (scalar == NULL || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, scalar)) goto done;
    }
    params = OSSL_PARAM_BLD_to_param(bld);
    ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0) goto done;
    if (EVP_PKEY_fromdata(ctx, &key, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0) key = NULL;
done:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    BN_clear_free(scalar);
    OSSL_PARAM_BLD_free(bld);
    return key;
}

// The uncompressed public point (65 bytes); 1 on success.
static inline int parley_p256_public(const EVP_PKEY *key, unsigned char *out) {
    size_t length = 0;
    return EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out, 65, &length) == 1 && length == 65;
}

// The private scalar, left-padded to 32 bytes; 1 on success.
static inline int parley_p256_private(const EVP_PKEY *key, unsigned char *out) {
    BIGNUM *scalar = NULL;
    if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) != 1) return 0;
    int ok = BN_bn2binpad(scalar, out, 32) == 32;
    BN_clear_free(scalar);
    return ok;
}

// ECDH: the 32-byte x coordinate of the shared point; 1 on success.
static inline int parley_p256_ecdh(EVP_PKEY *key, EVP_PKEY *peer, unsigned char *out) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key, NULL);
    size_t length = 32;
    int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1
        && EVP_PKEY_derive(ctx, out, &length) == 1 && length == 32;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

// ECDSA over SHA-256 (JWS ES256): the signature as r || s, 32 bytes each; 1 on success.
static inline int parley_p256_sign(EVP_PKEY *key, const unsigned char *message, size_t length, unsigned char *out) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char der[80];
    size_t derLength = sizeof(der);
    ECDSA_SIG *signature = NULL;
    int ok = ctx != NULL && EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(ctx, der, &derLength, message, length) == 1;
    if (ok) {
        const unsigned char *cursor = der;
        signature = d2i_ECDSA_SIG(NULL, &cursor, (long)derLength);
        ok = signature != NULL && BN_bn2binpad(ECDSA_SIG_get0_r(signature), out, 32) == 32
            && BN_bn2binpad(ECDSA_SIG_get0_s(signature), out + 32, 32) == 32;
    }
    ECDSA_SIG_free(signature);
    EVP_MD_CTX_free(ctx);
    return ok;
}

// Checks an r || s signature over SHA-256; 1 when it is valid.
static inline int parley_p256_verify(EVP_PKEY *key, const unsigned char *message, size_t length, const unsigned char *rs) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(rs, 32, NULL), *s = BN_bin2bn(rs + 32, 32, NULL);
    unsigned char *der = NULL;
    int derLength = 0, ok = 0;
    if (signature != NULL && r != NULL && s != NULL && ECDSA_SIG_set0(signature, r, s) == 1) {
        r = s = NULL;  // owned by the signature now
        derLength = i2d_ECDSA_SIG(signature, &der);
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (derLength > 0 && ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, key) == 1) {
        ok = EVP_DigestVerify(ctx, der, (size_t)derLength, message, length) == 1;
    }
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(signature);
    return ok;
}

// HKDF with SHA-256 (RFC 5869), extract then expand; 1 on success.
static inline int parley_hkdf_sha256(const unsigned char *salt, size_t saltLength, const unsigned char *ikm, size_t ikmLength,
                                     const unsigned char *info, size_t infoLength, unsigned char *out, size_t outLength) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
    size_t length = outLength;
    int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1
        && EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt, (int)saltLength) == 1
        && EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm, (int)ikmLength) == 1
        && EVP_PKEY_CTX_add1_hkdf_info(ctx, info, (int)infoLength) == 1
        && EVP_PKEY_derive(ctx, out, &length) == 1 && length == outLength;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

// AES-128-GCM with a 12-byte nonce and no associated data: `out` gets the ciphertext
// (`length` bytes) and then the 16-byte tag; 1 on success.
static inline int parley_aes128gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *plain, size_t length,
                                        unsigned char *out) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int written = 0, last = 0;
    int ok = ctx != NULL && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) == 1
        && EVP_EncryptUpdate(ctx, out, &written, plain, (int)length) == 1
        && EVP_EncryptFinal_ex(ctx, out + written, &last) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out + length) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

// The inverse of `parley_aes128gcm_seal`: `sealed` is ciphertext then tag (`length` bytes in
// all, at least 16); `out` gets `length - 16` bytes. 1 only when the tag is right.
static inline int parley_aes128gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *sealed, size_t length,
                                        unsigned char *out) {
    if (length < 16) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int written = 0, last = 0;
    unsigned char tag[16];
    memcpy(tag, sealed + length - 16, 16);
    int ok = ctx != NULL && EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) == 1
        && EVP_DecryptUpdate(ctx, out, &written, sealed, (int)(length - 16)) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1
        && EVP_DecryptFinal_ex(ctx, out + written, &last) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

#endif
