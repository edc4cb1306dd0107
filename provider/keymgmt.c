/*
 * RSA key management: keys come in through import (from the default
 * provider's keys: PEM files, legacy RSA objects, EVP_PKEY_fromdata) and
 * generation (the default provider's, run in this provider's library
 * context), and go out through export. Multi-prime keys are refused: an
 * operation then falls back to the default provider's key and code.
 */
#include "provider.h"

#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#define KEYPAIR (OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)

/* The parameters of a 2-prime key, public ones first. */
static const char *const PARAM_NAMES[] = {
    OSSL_PKEY_PARAM_RSA_N,         OSSL_PKEY_PARAM_RSA_E,         OSSL_PKEY_PARAM_RSA_D,
    OSSL_PKEY_PARAM_RSA_FACTOR1,   OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
#define PUBLIC_PARAMS 2
#define ALL_PARAMS 8

/* The key's numbers in PARAM_NAMES's order (NULL where absent). */
static void numbers_of(const RSA *rsa, const BIGNUM *values[ALL_PARAMS]) {
    RSA_get0_key(rsa, &values[0], &values[1], &values[2]);
    RSA_get0_factors(rsa, &values[3], &values[4]);
    RSA_get0_crt_params(rsa, &values[5], &values[6], &values[7]);
}

static void *key_new(void *provctx) {
    return obx_rsa_key_new(provctx);
}

static void key_free(void *keydata) {
    obx_rsa_key_free(keydata);
}

static int key_has(const void *keydata, int selection) {
    const obx_rsa_key *key = keydata;
    if (key == NULL) {
        return 0;
    }
    if ((selection & KEYPAIR) == 0) {
        return 1; /* no key data asked for (domain parameters: RSA has none) */
    }
    if (key->rsa == NULL) {
        return 0;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && RSA_get0_d(key->rsa) == NULL) {
        return 0;
    }
    return 1;
}

/* The imported BIGNUMs, freed (cleared) by release_params. */
typedef struct {
    BIGNUM *bn[ALL_PARAMS];
} params_bn;

static void release_params(params_bn *b) {
    for (size_t i = 0; i < ALL_PARAMS; i++) {
        BN_clear_free(b->bn[i]);
    }
}

static int key_import(void *keydata, int selection, const OSSL_PARAM params[]) {
    obx_rsa_key *key = keydata;
    if (key == NULL) {
        return 0;
    }
    if ((selection & KEYPAIR) == 0) {
        return 1; /* RSA has no domain parameters: nothing to import */
    }
    /* A third prime: not this provider's (the default provider takes it). */
    if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_FACTOR3) != NULL) {
        return 0;
    }
    int with_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 &&
                       OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_D) != NULL;
    size_t wanted = with_private ? ALL_PARAMS : PUBLIC_PARAMS;
    params_bn b = {0};
    int ok = 1;
    for (size_t i = 0; ok && i < wanted; i++) {
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, PARAM_NAMES[i]);
        /* A private key without its CRT parameters is imported as n, e, d. */
        if (p == NULL) {
            ok = i >= 3;
            continue;
        }
        ok = OSSL_PARAM_get_BN(p, &b.bn[i]);
    }
    RSA *rsa = ok ? RSA_new() : NULL;
    ok = rsa != NULL && RSA_set0_key(rsa, b.bn[0], b.bn[1], b.bn[2]);
    if (ok) {
        b.bn[0] = b.bn[1] = b.bn[2] = NULL;
        if (b.bn[3] != NULL && b.bn[4] != NULL && b.bn[5] != NULL && b.bn[6] != NULL &&
            b.bn[7] != NULL) {
            /* Each set0 takes ownership on success only. */
            ok = RSA_set0_factors(rsa, b.bn[3], b.bn[4]);
            if (ok) {
                b.bn[3] = b.bn[4] = NULL;
                ok = RSA_set0_crt_params(rsa, b.bn[5], b.bn[6], b.bn[7]);
            }
            if (ok) {
                b.bn[5] = b.bn[6] = b.bn[7] = NULL;
            }
        }
    }
    release_params(&b);
    if (!ok) {
        RSA_free(rsa);
        return 0;
    }
    return obx_rsa_key_set(key, rsa);
}

static int key_export(void *keydata, int selection, OSSL_CALLBACK *param_cb, void *cbarg) {
    const obx_rsa_key *key = keydata;
    if (key == NULL || key->rsa == NULL) {
        return 0;
    }
    if ((selection & KEYPAIR) == 0) {
        OSSL_PARAM none[] = {OSSL_PARAM_END};
        return param_cb(none, cbarg); /* no domain parameters */
    }
    const BIGNUM *values[ALL_PARAMS];
    numbers_of(key->rsa, values);
    size_t count = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 ? ALL_PARAMS : PUBLIC_PARAMS;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    int ok = bld != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        if (values[i] != NULL) {
            ok = OSSL_PARAM_BLD_push_BN(bld, PARAM_NAMES[i], values[i]);
        }
    }
    OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(bld) : NULL;
    ok = params != NULL && param_cb(params, cbarg);
    for (OSSL_PARAM *q = params; q != NULL && q->key != NULL; q++) {
        OPENSSL_cleanse(q->data, q->data_size); /* the private numbers */
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return ok;
}

#define BN_PARAM(name) OSSL_PARAM_BN(name, NULL, 0)
static const OSSL_PARAM public_types[] = {
    BN_PARAM(OSSL_PKEY_PARAM_RSA_N),
    BN_PARAM(OSSL_PKEY_PARAM_RSA_E),
    OSSL_PARAM_END,
};
static const OSSL_PARAM keypair_types[] = {
    BN_PARAM(OSSL_PKEY_PARAM_RSA_N),         BN_PARAM(OSSL_PKEY_PARAM_RSA_E),
    BN_PARAM(OSSL_PKEY_PARAM_RSA_D),         BN_PARAM(OSSL_PKEY_PARAM_RSA_FACTOR1),
    BN_PARAM(OSSL_PKEY_PARAM_RSA_FACTOR2),   BN_PARAM(OSSL_PKEY_PARAM_RSA_EXPONENT1),
    BN_PARAM(OSSL_PKEY_PARAM_RSA_EXPONENT2), BN_PARAM(OSSL_PKEY_PARAM_RSA_COEFFICIENT1),
    OSSL_PARAM_END,
};

static const OSSL_PARAM *key_types(int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        return keypair_types;
    }
    return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 ? public_types : NULL;
}

static int key_get_params(void *keydata, OSSL_PARAM params[]) {
    const obx_rsa_key *key = keydata;
    if (key == NULL || key->rsa == NULL) {
        return 0;
    }
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
        !OSSL_PARAM_set_int(p, RSA_bits(key->rsa))) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
        !OSSL_PARAM_set_int(p, RSA_security_bits(key->rsa))) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
        !OSSL_PARAM_set_int(p, RSA_size(key->rsa))) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_DEFAULT_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, "SHA256")) {
        return 0;
    }
    /* The key's numbers, for whoever reads them as parameters (printing,
     * EVP_PKEY_get_bn_param). */
    const BIGNUM *values[ALL_PARAMS];
    numbers_of(key->rsa, values);
    for (size_t i = 0; i < ALL_PARAMS; i++) {
        if ((p = OSSL_PARAM_locate(params, PARAM_NAMES[i])) != NULL && values[i] != NULL &&
            !OSSL_PARAM_set_BN(p, values[i])) {
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM *key_gettable_params(void *provctx) {
    (void)provctx;
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
        OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
        OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_N),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_E),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_D),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_FACTOR1),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_FACTOR2),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_EXPONENT1),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_EXPONENT2),
        BN_PARAM(OSSL_PKEY_PARAM_RSA_COEFFICIENT1),
        OSSL_PARAM_END,
    };
    return gettable;
}

/* Whether two keys are the same, by the default provider's rules: e
 * always; then n where both have it and the public key is selected, else
 * d (in constant time: fixed-width bytes and CRYPTO_memcmp) where both
 * have it and the private key is selected. A public key thus matches its
 * private key (a certificate against its key). */
static int key_match(const void *keydata1, const void *keydata2, int selection) {
    const obx_rsa_key *a = keydata1, *b = keydata2;
    if (a == NULL || b == NULL || a->rsa == NULL || b->rsa == NULL) {
        return 0;
    }
    if (BN_cmp(RSA_get0_e(a->rsa), RSA_get0_e(b->rsa)) != 0) {
        return 0;
    }
    if ((selection & KEYPAIR) == 0) {
        return 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        return BN_cmp(RSA_get0_n(a->rsa), RSA_get0_n(b->rsa)) == 0;
    }
    const BIGNUM *da = RSA_get0_d(a->rsa), *db = RSA_get0_d(b->rsa);
    if (da == NULL || db == NULL) {
        return 0;
    }
    int len = RSA_size(a->rsa);
    unsigned char *buf = OPENSSL_secure_zalloc(2 * (size_t)len);
    int same = buf != NULL && RSA_size(b->rsa) == len && BN_bn2binpad(da, buf, len) == len &&
               BN_bn2binpad(db, buf + len, len) == len && CRYPTO_memcmp(buf, buf + len, len) == 0;
    if (buf != NULL) {
        OPENSSL_secure_clear_free(buf, 2 * (size_t)len);
    }
    return same;
}

static void *key_dup(const void *keydata, int selection) {
    const obx_rsa_key *from = keydata;
    if (from == NULL || from->rsa == NULL) {
        return NULL;
    }
    obx_rsa_key *key = obx_rsa_key_new(from->prov);
    int with_private = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
    RSA *rsa = with_private && RSA_get0_d(from->rsa) != NULL ? RSAPrivateKey_dup(from->rsa)
                                                             : RSAPublicKey_dup(from->rsa);
    if (key == NULL || rsa == NULL || !obx_rsa_key_set(key, rsa)) {
        if (key == NULL) {
            RSA_free(rsa);
        }
        obx_rsa_key_free(key);
        return NULL;
    }
    return key;
}

static const char *key_operation_name(int operation_id) {
    (void)operation_id;
    return "RSA";
}

/* Generation: the default provider's, in this provider's library
 * context, imported here. */
typedef struct {
    obx_prov *prov;
    EVP_PKEY_CTX *gen;
} gen_ctx;

static void gen_cleanup(void *genctx) {
    gen_ctx *g = genctx;
    if (g != NULL) {
        EVP_PKEY_CTX_free(g->gen);
        OPENSSL_free(g);
    }
}

static int gen_set_params(void *genctx, const OSSL_PARAM params[]) {
    gen_ctx *g = genctx;
    return params == NULL || EVP_PKEY_CTX_set_params(g->gen, params);
}

static void *gen_init(void *provctx, int selection, const OSSL_PARAM params[]) {
    obx_prov *prov = provctx;
    if ((selection & KEYPAIR) == 0) {
        return NULL;
    }
    gen_ctx *g = OPENSSL_zalloc(sizeof(*g));
    if (g == NULL) {
        return NULL;
    }
    g->prov = prov;
    g->gen = EVP_PKEY_CTX_new_from_name(prov->libctx, "RSA", NULL);
    if (g->gen == NULL || EVP_PKEY_keygen_init(g->gen) <= 0 || !gen_set_params(g, params)) {
        gen_cleanup(g);
        return NULL;
    }
    return g;
}

static const OSSL_PARAM *gen_settable_params(void *genctx, void *provctx) {
    (void)provctx;
    gen_ctx *g = genctx;
    return g != NULL ? EVP_PKEY_CTX_settable_params(g->gen) : NULL;
}

/* Imports the generated key's numbers into a new key of this provider. */
static int import_generated(const OSSL_PARAM params[], void *arg) {
    return key_import(arg, KEYPAIR, params);
}

static void *gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg) {
    (void)cb;
    (void)cbarg;
    gen_ctx *g = genctx;
    EVP_PKEY *generated = NULL;
    if (EVP_PKEY_generate(g->gen, &generated) <= 0) {
        return NULL;
    }
    obx_rsa_key *key = obx_rsa_key_new(g->prov);
    int ok = key != NULL &&
             EVP_PKEY_export(generated, EVP_PKEY_KEYPAIR, import_generated, key) > 0;
    EVP_PKEY_free(generated);
    if (!ok) {
        obx_rsa_key_free(key);
        return NULL;
    }
    return key;
}

typedef void (*fn)(void);
const OSSL_DISPATCH obx_rsa_keymgmt_functions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, (fn)key_new},
    {OSSL_FUNC_KEYMGMT_FREE, (fn)key_free},
    {OSSL_FUNC_KEYMGMT_HAS, (fn)key_has},
    {OSSL_FUNC_KEYMGMT_MATCH, (fn)key_match},
    {OSSL_FUNC_KEYMGMT_IMPORT, (fn)key_import},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (fn)key_types},
    {OSSL_FUNC_KEYMGMT_EXPORT, (fn)key_export},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (fn)key_types},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, (fn)key_get_params},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (fn)key_gettable_params},
    {OSSL_FUNC_KEYMGMT_DUP, (fn)key_dup},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (fn)key_operation_name},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, (fn)gen_init},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (fn)gen_set_params},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (fn)gen_settable_params},
    {OSSL_FUNC_KEYMGMT_GEN, (fn)gen},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (fn)gen_cleanup},
    {0, NULL},
};
