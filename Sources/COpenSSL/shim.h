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

#endif
