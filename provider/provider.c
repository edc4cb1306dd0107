/*
 * The provider's entry point: `-provider oblivex` (or an openssl.cnf
 * section) loads this module, which offers RSA key management, signatures
 * and asymmetric encryption. Every other algorithm stays with the
 * providers loaded beside it (the default one).
 */
#include "provider.h"

#include <stdio.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define ALGORITHM_NAMES "RSA:rsaEncryption:1.2.840.113549.1.1.1"
#define PROPERTIES "provider=oblivex"

static const OSSL_ALGORITHM keymgmt[] = {
    {ALGORITHM_NAMES, PROPERTIES, obx_rsa_keymgmt_functions, "RSA keys (oblivex)"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM signature[] = {
    {ALGORITHM_NAMES, PROPERTIES, obx_rsa_signature_functions, "RSA signatures, batched"},
    {NULL, NULL, NULL, NULL},
};
static const OSSL_ALGORITHM asym_cipher[] = {
    {ALGORITHM_NAMES, PROPERTIES, obx_rsa_asym_cipher_functions, "RSA decryption, batched"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *query(void *provctx, int operation_id, int *no_cache) {
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return keymgmt;
    case OSSL_OP_SIGNATURE:
        return signature;
    case OSSL_OP_ASYM_CIPHER:
        return asym_cipher;
    default:
        return NULL;
    }
}

static const OSSL_PARAM *gettable_params(void *provctx) {
    (void)provctx;
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
        OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
        OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
        OSSL_PARAM_uint64("oblivex-batches", NULL),
        OSSL_PARAM_uint64("oblivex-batched-operations", NULL),
        OSSL_PARAM_uint64("oblivex-single-operations", NULL),
        OSSL_PARAM_uint64("oblivex-faults", NULL),
        OSSL_PARAM_END,
    };
    return gettable;
}

/* The build information (which names the engine that runs the batches),
 * written once. */
static char buildinfo[96];

/* The counts are the queue's (obx_batch_counts). */
static int get_params(void *provctx, OSSL_PARAM params[]) {
    (void)provctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, "oblivex RSA provider")) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, oblivex_version())) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(p, buildinfo)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
        !OSSL_PARAM_set_int(p, 1)) {
        return 0;
    }
    obx_batch_counts counts = obx_batch_counts_read();
    const struct {
        const char *name;
        uint64_t value;
    } count_params[] = {
        {"oblivex-batches", counts.batches},
        {"oblivex-batched-operations", counts.batched},
        {"oblivex-single-operations", counts.single},
        {"oblivex-faults", counts.faults},
    };
    for (size_t i = 0; i < sizeof(count_params) / sizeof(count_params[0]); i++) {
        if ((p = OSSL_PARAM_locate(params, count_params[i].name)) != NULL &&
            !OSSL_PARAM_set_uint64(p, count_params[i].value)) {
            return 0;
        }
    }
    return 1;
}

static void teardown(void *provctx) {
    obx_prov *prov = provctx;
    OSSL_LIB_CTX_free(prov->libctx);
    OPENSSL_free(prov);
}

typedef void (*fn)(void);
static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (fn)teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (fn)gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (fn)get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (fn)query},
    {0, NULL},
};

/* The module's entry point. The provider's own library context holds the
 * default provider: the digests of signatures and OAEP, and key generation
 * run there. */
__attribute__((visibility("default"))) int OSSL_provider_init(
    const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx) {
    (void)in;
    if (!obx_rsa_key_library_init()) {
        return 0;
    }
    /* Every context that loads the module writes the same text. */
    snprintf(buildinfo, sizeof(buildinfo), "oblivex %s, backend %s", oblivex_version(),
             oblivex_backend_name());
    obx_prov *prov = OPENSSL_zalloc(sizeof(*prov));
    if (prov == NULL) {
        return 0;
    }
    prov->core = handle;
    prov->libctx = OSSL_LIB_CTX_new();
    if (prov->libctx == NULL || OSSL_PROVIDER_load(prov->libctx, "default") == NULL) {
        teardown(prov);
        return 0;
    }
    *provctx = prov;
    *out = provider_functions;
    return 1;
}
