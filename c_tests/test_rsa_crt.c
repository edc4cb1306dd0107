/* RSA-2048 CRT decryption of 4 ciphertexts in one per-value-modulus call:
 * the 8 half exponentiations c^dp mod p and c^dq mod q (1024-bit moduli,
 * one group of 8 lanes on the IFMA engine), recombined with Garner's
 * formula, must equal OpenSSL's raw RSA private operation. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "test_util.h"

#define KEYS 2
#define PER_KEY 4
#define HALF 128 /* bytes of p, q */
#define FULL 256 /* bytes of n */

static BIGNUM *param(EVP_PKEY *key, const char *name) {
    BIGNUM *bn = NULL;
    CHECK(EVP_PKEY_get_bn_param(key, name, &bn) == 1, "get %s", name);
    return bn;
}

static void raw_decrypt(EVP_PKEY *key, const uint8_t *in, uint8_t *out) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(key, NULL);
    size_t out_len = FULL;
    CHECK(ctx != NULL && EVP_PKEY_decrypt_init(ctx) == 1 &&
              EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1 &&
              EVP_PKEY_decrypt(ctx, out, &out_len, in, FULL) == 1 && out_len == FULL,
          "OpenSSL raw RSA decryption");
    EVP_PKEY_CTX_free(ctx);
}

static void one_key(BN_CTX *bn) {
    EVP_PKEY *key = EVP_RSA_gen(2048);
    CHECK(key != NULL, "RSA key generation");
    BIGNUM *n = param(key, OSSL_PKEY_PARAM_RSA_N), *p = param(key, OSSL_PKEY_PARAM_RSA_FACTOR1);
    BIGNUM *q = param(key, OSSL_PKEY_PARAM_RSA_FACTOR2);
    BIGNUM *dp = param(key, OSSL_PKEY_PARAM_RSA_EXPONENT1);
    BIGNUM *dq = param(key, OSSL_PKEY_PARAM_RSA_EXPONENT2);
    BIGNUM *qinv = param(key, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);

    uint8_t p_bytes[HALF], q_bytes[HALF], dp_bytes[HALF], dq_bytes[HALF];
    BN_bn2binpad(p, p_bytes, HALF);
    BN_bn2binpad(q, q_bytes, HALF);
    BN_bn2binpad(dp, dp_bytes, HALF);
    BN_bn2binpad(dq, dq_bytes, HALF);
    oblivex_mont_ctx *ctx_p = NULL, *ctx_q = NULL;
    CHECK_STATUS(oblivex_mont_ctx_new(p_bytes, HALF, &ctx_p), OBLIVEX_OK, "ctx p");
    CHECK_STATUS(oblivex_mont_ctx_new(q_bytes, HALF, &ctx_q), OBLIVEX_OK, "ctx q");

    /* Ciphertexts c < n; bases are the full c (reduced mod p, q inside). */
    uint8_t cts[PER_KEY][FULL], bases[2 * PER_KEY][FULL], exps[2 * PER_KEY][HALF];
    const oblivex_mont_ctx *ctxs[2 * PER_KEY];
    for (int k = 0; k < PER_KEY; k++) {
        BIGNUM *c = BN_new();
        CHECK(BN_rand_range(c, n) == 1, "random ciphertext");
        BN_bn2binpad(c, cts[k], FULL);
        BN_free(c);
        memcpy(bases[2 * k], cts[k], FULL);
        memcpy(bases[2 * k + 1], cts[k], FULL);
        memcpy(exps[2 * k], dp_bytes, HALF);
        memcpy(exps[2 * k + 1], dq_bytes, HALF);
        ctxs[2 * k] = ctx_p;
        ctxs[2 * k + 1] = ctx_q;
    }
    uint8_t halves[2 * PER_KEY][HALF];
    size_t written = 0;
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, &bases[0][0], sizeof bases, &exps[0][0], sizeof exps,
                                             2 * PER_KEY, &halves[0][0], sizeof halves, &written),
                 OBLIVEX_OK, "per-value-modulus batch");

    for (int k = 0; k < PER_KEY; k++) {
        /* Garner: m = m2 + q·((m1 - m2)·qinv mod p). */
        BIGNUM *m1 = BN_bin2bn(halves[2 * k], HALF, NULL), *m2 = BN_bin2bn(halves[2 * k + 1], HALF, NULL);
        BIGNUM *h = BN_new(), *m = BN_new();
        CHECK(BN_mod_sub(h, m1, m2, p, bn) && BN_mod_mul(h, h, qinv, p, bn) && BN_mul(m, h, q, bn) &&
                  BN_add(m, m, m2),
              "CRT recombination");
        uint8_t ours[FULL], theirs[FULL];
        BN_bn2binpad(m, ours, FULL);
        raw_decrypt(key, cts[k], theirs);
        CHECK(memcmp(ours, theirs, FULL) == 0, "decryption %d differs from OpenSSL", k);
        BN_free(m1); BN_free(m2); BN_free(h); BN_free(m);
    }
    oblivex_mont_ctx_free(ctx_p);
    oblivex_mont_ctx_free(ctx_q);
    BN_free(n); BN_free(p); BN_free(q); BN_clear_free(dp); BN_clear_free(dq); BN_free(qinv);
    EVP_PKEY_free(key);
}

int main(void) {
    test_seed("test_rsa_crt");
    BN_CTX *bn = BN_CTX_new();
    for (int key = 0; key < KEYS; key++) {
        one_key(bn);
    }
    BN_CTX_free(bn);
    printf("test_rsa_crt: %d keys x %d RSA-2048 CRT decryptions\n", KEYS, PER_KEY);
    return test_finish("test_rsa_crt");
}
