#ifndef MEDIACTL_COPENSSL_SHIM_H
#define MEDIACTL_COPENSSL_SHIM_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

// Function-like macros do not import into Swift: wrap the ones MediaCrypto needs.
static inline void mediactl_openssl_cleanse(void *ptr, size_t len) { OPENSSL_cleanse(ptr, len); }

// SHA-256 through OpenSSL's low-level interface (same assembly block function as EVP, but no provider fetch and
// no heap context: EVP_DigestInit_ex costs ≈ 10,000 instructions per call in OpenSSL 3). Deprecated in 3.0, kept.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
typedef struct mediactl_sha256_ctx { SHA256_CTX ctx; } mediactl_sha256_ctx;
static inline int mediactl_sha256_init(mediactl_sha256_ctx *c) { return SHA256_Init(&c->ctx); }
static inline int mediactl_sha256_update(mediactl_sha256_ctx *c, const void *data, size_t len) {
    return SHA256_Update(&c->ctx, data, len);
}
static inline int mediactl_sha256_final(mediactl_sha256_ctx *c, unsigned char *md) {
    int ok = SHA256_Final(md, &c->ctx);
    OPENSSL_cleanse(c, sizeof(*c));
    return ok;
}
static inline void mediactl_sha256_oneshot(const void *data, size_t len, unsigned char *md) {
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, data, len);
    SHA256_Final(md, &c);
    OPENSSL_cleanse(&c, sizeof(c));
}
/* SHA-256 of a || b, the context on the stack. */
static inline void mediactl_sha256_twopart(const void *a, size_t alen, const void *b, size_t blen, unsigned char *md) {
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, a, alen);
    SHA256_Update(&c, b, blen);
    SHA256_Final(md, &c);
    OPENSSL_cleanse(&c, sizeof(c));
}
#pragma GCC diagnostic pop

#endif
