// libcrypto (OpenSSL 3) for LatchkeyRuntime on Linux.
//
// OpenSSL's parameter-name macros (OSSL_PKEY_PARAM_*) reach Swift as temporary Strings, whose
// pointers OpenSSL keeps (OSSL_PARAM_BLD stores the key pointer until OSSL_PARAM_BLD_to_param), so
// they get stable `static const char *const` copies here. Function-like macros Swift cannot import
// get `static inline` wrappers.
#ifndef CLATCHKEY_CRYPTO_SHIM_H
#define CLATCHKEY_CRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

// Parameter names.
static const char *const latchkey_param_rsa_n = OSSL_PKEY_PARAM_RSA_N;
static const char *const latchkey_param_rsa_e = OSSL_PKEY_PARAM_RSA_E;
static const char *const latchkey_param_group_name = OSSL_PKEY_PARAM_GROUP_NAME;
static const char *const latchkey_param_pub_key = OSSL_PKEY_PARAM_PUB_KEY;
static const char *const latchkey_param_ec_pub_x = OSSL_PKEY_PARAM_EC_PUB_X;
static const char *const latchkey_param_ec_pub_y = OSSL_PKEY_PARAM_EC_PUB_Y;

// Algorithm and group names.
static const char *const latchkey_name_rsa = "RSA";
static const char *const latchkey_name_ec = "EC";
static const char *const latchkey_name_ed25519 = "ED25519";
static const char *const latchkey_group_p256 = "prime256v1";
static const char *const latchkey_group_p384 = "secp384r1";

// Selections for EVP_PKEY_fromdata.
static const int latchkey_selection_public_key = EVP_PKEY_PUBLIC_KEY;

static inline void latchkey_openssl_free(void *pointer) { OPENSSL_free(pointer); }

static inline int latchkey_bn_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }

static inline OSSL_PARAM latchkey_param_end(void) {
    OSSL_PARAM end = OSSL_PARAM_END;
    return end;
}

#endif
