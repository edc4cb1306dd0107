/*
 * RSA decryption (PKCS #1 v1.5, with the implicit rejection of the OpenSSL
 * version it runs on; OAEP; raw; and the TLS 1.2 key exchange's padding)
 * and encryption, through OpenSSL's RSA functions on this provider's keys:
 * the private operation joins the batch queue.
 */
#include "provider.h"
#include "tls_premaster.h"

#include <limits.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

/* OpenSSL 3.2 and later reject bad PKCS #1 v1.5 padding implicitly (a
 * synthetic message, no error) unless the "implicit-rejection" setting is
 * 0; built against an older OpenSSL, the setting does not exist, as in its
 * default provider (run on 3.2 or later, such a build still rejects
 * implicitly, RSA_private_decrypt's doing, but ignores the setting). */
#if defined(RSA_PKCS1_NO_IMPLICIT_REJECT_PADDING) && \
    defined(OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION)
#define OBX_IMPLICIT_REJECTION_SETTING 1
#endif

typedef struct {
    obx_prov *prov;
    obx_rsa_key *key; /* the caller's; not owned */
    int pad_mode;
    EVP_MD *oaep_md; /* NULL: SHA-1, OAEP's default */
    EVP_MD *mgf1_md; /* NULL: the same as oaep_md */
    unsigned char *label;
    size_t label_len;
    unsigned client_version, alt_version; /* RSA_PKCS1_WITH_TLS_PADDING */
    unsigned implicit_rejection;          /* 1 unless set to 0 (3.2 and later) */
} cipher_ctx;

static void *cipher_newctx(void *provctx) {
    cipher_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));
    if (ctx != NULL) {
        ctx->prov = provctx;
        ctx->pad_mode = RSA_PKCS1_PADDING;
        ctx->implicit_rejection = 1;
    }
    return ctx;
}

static void cipher_freectx(void *vctx) {
    cipher_ctx *ctx = vctx;
    if (ctx != NULL) {
        EVP_MD_free(ctx->oaep_md);
        EVP_MD_free(ctx->mgf1_md);
        OPENSSL_free(ctx->label);
        OPENSSL_free(ctx);
    }
}

static void *cipher_dupctx(void *vctx) {
    const cipher_ctx *from = vctx;
    cipher_ctx *ctx = OPENSSL_memdup(from, sizeof(*from));
    if (ctx == NULL) {
        return NULL;
    }
    ctx->label = NULL;
    int ok = (ctx->oaep_md == NULL || EVP_MD_up_ref(ctx->oaep_md)) &&
             (ctx->mgf1_md == NULL || EVP_MD_up_ref(ctx->mgf1_md));
    if (!ok) {
        OPENSSL_free(ctx);
        return NULL;
    }
    if (from->label != NULL && (ctx->label = OPENSSL_memdup(from->label, from->label_len)) == NULL) {
        cipher_freectx(ctx);
        return NULL;
    }
    return ctx;
}

/* Every parameter is read and checked before any is applied: a refused
 * set leaves the context as it was. */
static int cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    cipher_ctx *ctx = vctx;
    const OSSL_PARAM *p;
    if (params == NULL) {
        return 1;
    }
    int pad_mode = ctx->pad_mode;
    unsigned client_version = ctx->client_version, alt_version = ctx->alt_version;
    unsigned implicit_rejection = ctx->implicit_rejection;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE)) != NULL &&
        (!obx_pad_mode_from_param(p, &pad_mode) ||
         (pad_mode != RSA_PKCS1_PADDING && pad_mode != RSA_PKCS1_OAEP_PADDING &&
          pad_mode != RSA_NO_PADDING && pad_mode != RSA_PKCS1_WITH_TLS_PADDING))) {
        ERR_raise_data(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT,
                       "oblivex: RSA encryption takes the pad modes pkcs1, oaep and none");
        return 0;
    }
    if (((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION)) != NULL &&
         !OSSL_PARAM_get_uint(p, &client_version)) ||
        ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION)) !=
             NULL &&
         !OSSL_PARAM_get_uint(p, &alt_version))) {
        return 0;
    }
#ifdef OBX_IMPLICIT_REJECTION_SETTING
    if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION)) != NULL &&
        !OSSL_PARAM_get_uint(p, &implicit_rejection)) {
        return 0;
    }
#endif
    void *label = NULL;
    size_t label_len = 0;
    const OSSL_PARAM *label_param = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL);
    if (label_param != NULL && !OSSL_PARAM_get_octet_string(label_param, &label, 0, &label_len)) {
        return 0;
    }
    EVP_MD *oaep = NULL, *mgf1 = NULL;
    if (!obx_digest_from_params(ctx->prov, params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST,
                                OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, &oaep) ||
        !obx_digest_from_params(ctx->prov, params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST,
                                OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, &mgf1)) {
        EVP_MD_free(oaep);
        OPENSSL_free(label);
        return 0;
    }
    obx_replace_digest(&ctx->oaep_md, oaep);
    obx_replace_digest(&ctx->mgf1_md, mgf1);
    if (label_param != NULL) {
        OPENSSL_free(ctx->label);
        ctx->label = label;
        ctx->label_len = label_len;
    }
    ctx->pad_mode = pad_mode;
    ctx->client_version = client_version;
    ctx->alt_version = alt_version;
    ctx->implicit_rejection = implicit_rejection != 0;
    return 1;
}

static const OSSL_PARAM *cipher_settable_ctx_params(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    static const OSSL_PARAM settable[] = {
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, NULL, 0),
        OSSL_PARAM_octet_string(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
#ifdef OBX_IMPLICIT_REJECTION_SETTING
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION, NULL),
#endif
        OSSL_PARAM_END,
    };
    return settable;
}

/* MGF1's digest: OAEP's (`oaep`) unless one was set. */
static const EVP_MD *mgf1_of(const cipher_ctx *ctx, const EVP_MD *oaep) {
    return ctx->mgf1_md != NULL ? ctx->mgf1_md : oaep;
}

/* The OAEP digest: SHA-1 unless one was set (OAEP's default). */
static const EVP_MD *oaep_md(cipher_ctx *ctx) {
    if (ctx->oaep_md == NULL) {
        ctx->oaep_md = EVP_MD_fetch(ctx->prov->libctx, "SHA1", NULL);
    }
    return ctx->oaep_md;
}

static int cipher_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    cipher_ctx *ctx = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE)) != NULL &&
        !obx_pad_mode_to_param(p, ctx->pad_mode)) {
        return 0;
    }
    const EVP_MD *md = oaep_md(ctx);
    const EVP_MD *mgf1 = mgf1_of(ctx, md);
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST)) != NULL &&
        (md == NULL || !OSSL_PARAM_set_utf8_string(p, EVP_MD_get0_name(md)))) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST)) != NULL &&
        (mgf1 == NULL || !OSSL_PARAM_set_utf8_string(p, EVP_MD_get0_name(mgf1)))) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL)) != NULL &&
        !OSSL_PARAM_set_octet_ptr(p, ctx->label, ctx->label_len)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION)) != NULL &&
        !OSSL_PARAM_set_uint(p, ctx->client_version)) {
        return 0;
    }
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION)) != NULL &&
        !OSSL_PARAM_set_uint(p, ctx->alt_version)) {
        return 0;
    }
#ifdef OBX_IMPLICIT_REJECTION_SETTING
    if ((p = OSSL_PARAM_locate(params, OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION)) != NULL &&
        !OSSL_PARAM_set_uint(p, ctx->implicit_rejection)) {
        return 0;
    }
#endif
    return 1;
}

static const OSSL_PARAM *cipher_gettable_ctx_params(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    static const OSSL_PARAM gettable[] = {
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
        OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
        OSSL_PARAM_octet_ptr(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
#ifdef OBX_IMPLICIT_REJECTION_SETTING
        OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_IMPLICIT_REJECTION, NULL),
#endif
        OSSL_PARAM_END,
    };
    return gettable;
}

static int cipher_init(void *vctx, void *key, const OSSL_PARAM params[]) {
    cipher_ctx *ctx = vctx;
    obx_rsa_key *k = key;
    if (k == NULL || k->rsa == NULL) {
        return 0;
    }
    ctx->key = k;
    ctx->pad_mode = RSA_PKCS1_PADDING;
    ctx->implicit_rejection = 1; /* each init starts over, as the default provider's */
    return cipher_set_ctx_params(ctx, params);
}

static int cipher_decrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize,
                          const unsigned char *in, size_t inlen) {
    cipher_ctx *ctx = vctx;
    RSA *rsa = ctx->key->rsa;
    size_t size = (size_t)RSA_size(rsa);
    int tls = ctx->pad_mode == RSA_PKCS1_WITH_TLS_PADDING;
    size_t needed = tls ? OBX_TLS_PREMASTER_LEN : size;
    if (out == NULL) {
        *outlen = needed;
        return 1;
    }
    if (outsize < needed || inlen != size || RSA_get0_d(rsa) == NULL ||
        (tls && (ctx->client_version == 0 || size < 59))) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    if (ctx->pad_mode == RSA_PKCS1_PADDING || ctx->pad_mode == RSA_NO_PADDING) {
        int pad_mode = ctx->pad_mode;
#ifdef OBX_IMPLICIT_REJECTION_SETTING
        if (pad_mode == RSA_PKCS1_PADDING && !ctx->implicit_rejection) {
            pad_mode = RSA_PKCS1_NO_IMPLICIT_REJECT_PADDING;
        }
#endif
        int len = RSA_private_decrypt((int)inlen, in, out, rsa, pad_mode);
        /* Whether it succeeded is what this call returns: public (where
         * OpenSSL has implicit rejection, a bad block succeeds too). */
        OBX_PUBLIC(len);
        if (len < 0) {
            return 0;
        }
        *outlen = (size_t)len;
        return 1;
    }
    /* OAEP and TLS: the raw block, then its padding checked here. */
    unsigned char *em = OPENSSL_secure_malloc(size);
    unsigned char random[OBX_TLS_PREMASTER_LEN];
    int len = -1;
    if (em != NULL && RSA_private_decrypt((int)inlen, in, em, rsa, RSA_NO_PADDING) == (int)size) {
        if (tls) {
            /* Drawn before the block is looked at, used if it is bad. */
            if (RAND_priv_bytes_ex(ctx->prov->libctx, random, sizeof(random), 0) == 1) {
                obx_tls_premaster(em, size, ctx->client_version, ctx->alt_version, random, out);
                len = OBX_TLS_PREMASTER_LEN;
            }
        } else {
            const EVP_MD *md = oaep_md(ctx);
            len = md == NULL ? -1
                             : RSA_padding_check_PKCS1_OAEP_mgf1(
                                   out, (int)outsize, em, (int)size, (int)size, ctx->label,
                                   (int)ctx->label_len, md,
                                   mgf1_of(ctx, md));
        }
    }
    OPENSSL_cleanse(random, sizeof(random));
    if (em != NULL) {
        OPENSSL_secure_clear_free(em, size);
    }
    /* The OAEP check's verdict is what this call returns: public. */
    OBX_PUBLIC(len);
    if (len < 0) {
        return 0;
    }
    *outlen = (size_t)len;
    return 1;
}

static int cipher_encrypt(void *vctx, unsigned char *out, size_t *outlen, size_t outsize,
                          const unsigned char *in, size_t inlen) {
    cipher_ctx *ctx = vctx;
    RSA *rsa = ctx->key->rsa;
    size_t size = (size_t)RSA_size(rsa);
    if (out == NULL) {
        *outlen = size;
        return 1;
    }
    if (outsize < size || inlen > size || ctx->pad_mode == RSA_PKCS1_WITH_TLS_PADDING) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    int len = -1;
    if (ctx->pad_mode == RSA_PKCS1_OAEP_PADDING) {
        const EVP_MD *md = oaep_md(ctx);
        unsigned char *em = OPENSSL_malloc(size);
        if (em != NULL && md != NULL &&
            RSA_padding_add_PKCS1_OAEP_mgf1(em, (int)size, in, (int)inlen, ctx->label,
                                            (int)ctx->label_len, md,
                                            mgf1_of(ctx, md))) {
            len = RSA_public_encrypt((int)size, em, out, rsa, RSA_NO_PADDING);
        }
        OPENSSL_clear_free(em, size); /* the encoded plaintext */
    } else {
        len = RSA_public_encrypt((int)inlen, in, out, rsa, ctx->pad_mode);
    }
    if (len < 0) {
        return 0;
    }
    *outlen = (size_t)len;
    return 1;
}

typedef void (*fn)(void);
const OSSL_DISPATCH obx_rsa_asym_cipher_functions[] = {
    {OSSL_FUNC_ASYM_CIPHER_NEWCTX, (fn)cipher_newctx},
    {OSSL_FUNC_ASYM_CIPHER_FREECTX, (fn)cipher_freectx},
    {OSSL_FUNC_ASYM_CIPHER_DUPCTX, (fn)cipher_dupctx},
    {OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT, (fn)cipher_init},
    {OSSL_FUNC_ASYM_CIPHER_ENCRYPT, (fn)cipher_encrypt},
    {OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, (fn)cipher_init},
    {OSSL_FUNC_ASYM_CIPHER_DECRYPT, (fn)cipher_decrypt},
    {OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, (fn)cipher_get_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, (fn)cipher_gettable_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, (fn)cipher_set_ctx_params},
    {OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, (fn)cipher_settable_ctx_params},
    {0, NULL},
};
