/*
 * RSA signatures: PKCS #1 v1.5 (with a DigestInfo, or raw), PSS, and no
 * padding, through OpenSSL's RSA functions on this provider's keys (so
 * the private operation joins the batch queue). Verification runs there
 * too, on OpenSSL's public-key code.
 */
#include "provider.h"

#include <limits.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

typedef struct {
    obx_prov *prov;
    obx_rsa_key *key; /* the caller's; not owned */
    int pad_mode;
    int saltlen;
    EVP_MD *md;      /* NULL: the input is signed as given */
    EVP_MD *mgf1_md; /* NULL: the same as md */
    EVP_MD_CTX *mdctx; /* the DigestSign/DigestVerify hash */
} sig_ctx;

/* MGF1's digest: the message digest unless one was set. */
static const EVP_MD *mgf1_of(const sig_ctx *ctx) {
    return ctx->mgf1_md != NULL ? ctx->mgf1_md : ctx->md;
}

static void *sig_newctx(void *provctx, const char *propq) {
    (void)propq;
    sig_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));
    if (ctx != NULL) {
        ctx->prov = provctx;
        ctx->pad_mode = RSA_PKCS1_PADDING;
        ctx->saltlen = RSA_PSS_SALTLEN_AUTO;
    }
    return ctx;
}

static void sig_freectx(void *vctx) {
    sig_ctx *ctx = vctx;
    if (ctx != NULL) {
        EVP_MD_free(ctx->md);
        EVP_MD_free(ctx->mgf1_md);
        EVP_MD_CTX_free(ctx->mdctx);
        OPENSSL_free(ctx);
    }
}

static void *sig_dupctx(void *vctx) {
    const sig_ctx *from = vctx;
    sig_ctx *ctx = OPENSSL_memdup(from, sizeof(*from));
    if (ctx == NULL) {
        return NULL;
    }
    ctx->mdctx = NULL;
    if ((ctx->md != NULL && !EVP_MD_up_ref(ctx->md)) ||
        (ctx->mgf1_md != NULL && !EVP_MD_up_ref(ctx->mgf1_md))) {
        OPENSSL_free(ctx);
        return NULL;
    }
    if (from->mdctx != NULL) {
        ctx->mdctx = EVP_MD_CTX_new();
        if (ctx->mdctx == NULL || !EVP_MD_CTX_copy_ex(ctx->mdctx, from->mdctx)) {
            sig_freectx(ctx);
            return NULL;
        }
    }
    return ctx;
}

/* Every parameter is read and checked before any is applied: a refused
 * set leaves the context as it was. */
static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    sig_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    if (params == NULL) {
        return 1;
    }
    int pad_mode = ctx->pad_mode, saltlen = ctx->saltlen;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL &&
        (!obx_pad_mode_from_param(p, &pad_mode) ||
         (pad_mode != RSA_PKCS1_PADDING && pad_mode != RSA_PKCS1_PSS_PADDING &&
          pad_mode != RSA_NO_PADDING))) {
        ERR_raise_data(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT,
                       "oblivex: RSA signatures take the pad modes pkcs1, pss and none");
        return 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) != NULL &&
        !obx_saltlen_from_param(p, &saltlen)) {
        return 0;
    }
    EVP_MD *md = NULL, *mgf1 = NULL;
    if (!obx_digest_from_params(ctx->prov, params, OSSL_SIGNATURE_PARAM_DIGEST,
                                OSSL_SIGNATURE_PARAM_PROPERTIES, &md) ||
        !obx_digest_from_params(ctx->prov, params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST,
                                OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, &mgf1)) {
        EVP_MD_free(md);
        return 0;
    }
    obx_replace_digest(&ctx->md, md);
    obx_replace_digest(&ctx->mgf1_md, mgf1);
    ctx->pad_mode = pad_mode;
    ctx->saltlen = saltlen;
    return 1;
}

static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
        OSSL_PARAM_END,
    };
    return settable;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    const sig_ctx *ctx = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL &&
        !obx_pad_mode_to_param(p, ctx->pad_mode)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, ctx->md != NULL ? EVP_MD_get0_name(ctx->md) : "")) {
        return 0;
    }
    const EVP_MD *mgf1 = mgf1_of(ctx);
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) != NULL &&
        !OSSL_PARAM_set_utf8_string(p, mgf1 != NULL ? EVP_MD_get0_name(mgf1) : "")) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) != NULL &&
        !obx_saltlen_to_param(p, ctx->saltlen)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID)) != NULL) {
        unsigned char *der = NULL;
        int len = 0;
        int ok = ctx->key != NULL &&
                 obx_algorithm_id_der(ctx->key->rsa, ctx->pad_mode, ctx->md, ctx->mgf1_md,
                                      ctx->saltlen, &der, &len) &&
                 OSSL_PARAM_set_octet_string(p, der, (size_t)len);
        OPENSSL_free(der);
        if (!ok) {
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0),
        OSSL_PARAM_END,
    };
    return gettable;
}

/* sign_init and verify_init: the key, the defaults, then `params`. */
static int sig_init(void *vctx, void *key, const OSSL_PARAM params[]) {
    sig_ctx *ctx = vctx;
    obx_rsa_key *k = key;
    if (k == NULL || k->rsa == NULL) {
        return 0;
    }
    ctx->key = k;
    ctx->pad_mode = RSA_PKCS1_PADDING;
    ctx->saltlen = RSA_PSS_SALTLEN_AUTO;
    return sig_set_ctx_params(ctx, params);
}

/* The digest's size where one is set, and whether `len` matches it. */
static int digest_len_ok(const sig_ctx *ctx, size_t len) {
    return ctx->md == NULL || len == (size_t)EVP_MD_get_size(ctx->md);
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                    const unsigned char *tbs, size_t tbslen) {
    sig_ctx *ctx = vctx;
    RSA *rsa = ctx->key->rsa;
    size_t size = (size_t)RSA_size(rsa);
    if (sig == NULL) {
        *siglen = size;
        return 1;
    }
    if (sigsize < size || !digest_len_ok(ctx, tbslen) || tbslen > INT_MAX) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    int len = -1;
    if (ctx->pad_mode == RSA_PKCS1_PSS_PADDING) {
        if (ctx->md == NULL) {
            ERR_raise_data(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT,
                           "oblivex: PSS needs a digest");
            return 0;
        }
        unsigned char *em = OPENSSL_malloc(size);
        const EVP_MD *mgf1 = mgf1_of(ctx);
        if (em != NULL &&
            RSA_padding_add_PKCS1_PSS_mgf1(rsa, em, tbs, ctx->md, mgf1, ctx->saltlen)) {
            len = RSA_private_encrypt((int)size, em, sig, rsa, RSA_NO_PADDING);
        }
        OPENSSL_free(em);
    } else if (ctx->md != NULL) {
        unsigned int ulen;
        if (ctx->pad_mode == RSA_PKCS1_PADDING &&
            RSA_sign(EVP_MD_get_type(ctx->md), tbs, (unsigned int)tbslen, sig, &ulen, rsa)) {
            len = (int)ulen;
        }
    } else {
        len = RSA_private_encrypt((int)tbslen, tbs, sig, rsa, ctx->pad_mode);
    }
    OBX_PUBLIC(len); /* whether it succeeded: what this call returns */
    if (len <= 0) {
        return 0;
    }
    *siglen = (size_t)len;
    return 1;
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                      const unsigned char *tbs, size_t tbslen) {
    sig_ctx *ctx = vctx;
    RSA *rsa = ctx->key->rsa;
    size_t size = (size_t)RSA_size(rsa);
    if (siglen != size || !digest_len_ok(ctx, tbslen) || tbslen > INT_MAX) {
        return 0;
    }
    if (ctx->pad_mode == RSA_PKCS1_PADDING && ctx->md != NULL) {
        return RSA_verify(EVP_MD_get_type(ctx->md), tbs, (unsigned int)tbslen, sig,
                          (unsigned int)siglen, rsa) == 1;
    }
    if (ctx->pad_mode == RSA_PKCS1_PSS_PADDING && ctx->md == NULL) {
        return 0;
    }
    unsigned char *decoded = OPENSSL_malloc(size);
    int ok = 0;
    if (decoded != NULL) {
        int padding = ctx->pad_mode == RSA_PKCS1_PSS_PADDING ? RSA_NO_PADDING : ctx->pad_mode;
        int len = RSA_public_decrypt((int)siglen, sig, decoded, rsa, padding);
        if (ctx->pad_mode == RSA_PKCS1_PSS_PADDING) {
            const EVP_MD *mgf1 = mgf1_of(ctx);
            ok = len == (int)size &&
                 RSA_verify_PKCS1_PSS_mgf1(rsa, tbs, ctx->md, mgf1, decoded, ctx->saltlen) == 1;
        } else {
            ok = len >= 0 && (size_t)len == tbslen && memcmp(decoded, tbs, tbslen) == 0;
        }
    }
    OPENSSL_free(decoded);
    return ok;
}

/* The input of verify_recover without a digest: what the signature
 * carries under its padding. */
static int sig_verify_recover(void *vctx, unsigned char *rout, size_t *routlen,
                              size_t routsize, const unsigned char *sig, size_t siglen) {
    sig_ctx *ctx = vctx;
    RSA *rsa = ctx->key->rsa;
    size_t size = (size_t)RSA_size(rsa);
    if (rout == NULL) {
        *routlen = size;
        return 1;
    }
    if (ctx->md != NULL || ctx->pad_mode == RSA_PKCS1_PSS_PADDING || siglen != size) {
        ERR_raise_data(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT,
                       "oblivex: verify-recover takes raw or PKCS #1 v1.5 signatures, no digest");
        return 0;
    }
    unsigned char *decoded = OPENSSL_malloc(size);
    int len = decoded != NULL
                  ? RSA_public_decrypt((int)siglen, sig, decoded, rsa, ctx->pad_mode)
                  : -1;
    int ok = len >= 0 && (size_t)len <= routsize;
    if (ok) {
        memcpy(rout, decoded, (size_t)len);
        *routlen = (size_t)len;
    }
    OPENSSL_free(decoded);
    return ok;
}

/* digest_sign_init and digest_verify_init: sig_init, then the digest
 * (SHA-256 when none is named). */
static int sig_digest_init(void *vctx, const char *mdname, void *key, const OSSL_PARAM params[]) {
    sig_ctx *ctx = vctx;
    EVP_MD *md = EVP_MD_fetch(ctx->prov->libctx, mdname != NULL ? mdname : "SHA256", NULL);
    if (md == NULL) {
        return 0;
    }
    obx_replace_digest(&ctx->md, md);
    if (!sig_init(ctx, key, params)) {
        return 0;
    }
    if (ctx->mdctx == NULL && (ctx->mdctx = EVP_MD_CTX_new()) == NULL) {
        return 0;
    }
    return EVP_DigestInit_ex2(ctx->mdctx, ctx->md, NULL);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen) {
    sig_ctx *ctx = vctx;
    return ctx->mdctx != NULL && EVP_DigestUpdate(ctx->mdctx, data, datalen);
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize) {
    sig_ctx *ctx = vctx;
    if (sig == NULL) {
        return sig_sign(ctx, NULL, siglen, sigsize, NULL, 0);
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len;
    if (ctx->mdctx == NULL || !EVP_DigestFinal_ex(ctx->mdctx, digest, &len)) {
        return 0;
    }
    return sig_sign(ctx, sig, siglen, sigsize, digest, len);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen) {
    sig_ctx *ctx = vctx;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len;
    if (ctx->mdctx == NULL || !EVP_DigestFinal_ex(ctx->mdctx, digest, &len)) {
        return 0;
    }
    return sig_verify(ctx, sig, siglen, digest, len);
}

typedef void (*fn)(void);
const OSSL_DISPATCH obx_rsa_signature_functions[] = {
    {OSSL_FUNC_SIGNATURE_NEWCTX, (fn)sig_newctx},
    {OSSL_FUNC_SIGNATURE_FREECTX, (fn)sig_freectx},
    {OSSL_FUNC_SIGNATURE_DUPCTX, (fn)sig_dupctx},
    {OSSL_FUNC_SIGNATURE_SIGN_INIT, (fn)sig_init},
    {OSSL_FUNC_SIGNATURE_SIGN, (fn)sig_sign},
    {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (fn)sig_init},
    {OSSL_FUNC_SIGNATURE_VERIFY, (fn)sig_verify},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (fn)sig_init},
    {OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (fn)sig_verify_recover},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (fn)sig_digest_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (fn)sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (fn)sig_digest_sign_final},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (fn)sig_digest_init},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (fn)sig_digest_update},
    {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (fn)sig_digest_verify_final},
    {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (fn)sig_get_ctx_params},
    {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (fn)sig_gettable_ctx_params},
    {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (fn)sig_set_ctx_params},
    {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (fn)sig_settable_ctx_params},
    {0, NULL},
};
