/* bench_rsa_crt: RSA private-key operations per second (raw RSA, CRT), one
 * core, one key, 8 different ciphertexts per round:
 *
 *   oblivex     the RSA key API: oblivex_rsa_private_batch on a key made
 *               once by oblivex_rsa_crt_key_new (8 per call: reductions,
 *               the 16 half exponentiations in one engine batch, Garner's
 *               recombination)
 *   ox-multi    the per-call path without the key API: the 16 half
 *               exponentiations c^dp mod p, c^dq mod q of 8 ciphertexts in
 *               one oblivex_mod_exp_batch_multi call, then Garner's
 *               recombination in OpenSSL BN arithmetic
 *   crypto_mb   Intel's mbx_rsa_private_crt_mb8 (8 per call), when
 *               installed (see bench/crypto_mb.h)
 *   openssl     OpenSSL's own private operation (EVP_PKEY_decrypt,
 *               RSA_NO_PADDING; CRT with blinding), one per call
 *
 * Every result is checked against OpenSSL's before timing; rounds are
 * interleaved and each figure is a median. The last column is each
 * contender's time over the key API's: above 1, the key API has that many
 * times its operations per second.
 *
 *   bench_rsa_crt [--json] [--key-api-only] [--runs N] [--seconds S]
 *                 [--bits 2048,4096]
 *
 * --key-api-only times the key API alone (for a profiler).
 */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_util.h"
#include "bench/crypto_mb.h"
#include "oblivex.h"

#define LANES 8
#define MAX_SIZES 4

static int runs = 5;
static double seconds = 0.2;

struct rsa_bench {
    int bits;
    size_t len, half; /* bytes of n and of p, q */
    EVP_PKEY *key;
    BIGNUM *p, *q, *dp, *dq, *qinv;
    BN_CTX *bn;
    uint8_t *ct[LANES], *out[LANES], *expected[LANES];
    /* oblivex */
    oblivex_rsa_crt_key *rsa_key;
    uint8_t *cts, *plain; /* the 8 ciphertexts in one buffer; the results */
    oblivex_mont_ctx *ctx_p, *ctx_q;
    const oblivex_mont_ctx *ctxs[2 * LANES];
    uint8_t *bases, *exps, *halves;
    /* crypto_mb */
    const struct crypto_mb *mb;
    const void *mb_method;
    uint8_t *mb_buffer;
    uint64_t *mb_p, *mb_q, *mb_dp, *mb_dq, *mb_qinv;
    uint8_t *mb_out[LANES];
};

static void fail(const char *what) {
    fprintf(stderr, "bench_rsa_crt: %s failed\n", what);
    exit(1);
}

static BIGNUM *param(EVP_PKEY *key, const char *name) {
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) fail(name);
    return bn;
}

static uint64_t *words_of(const BIGNUM *x, size_t len) {
    uint8_t *be = bench_calloc(len);
    uint64_t *words = bench_calloc((len + 7) / 8 * 8);
    BN_bn2binpad(x, be, (int)len);
    for (size_t i = 0; i < len; i++) words[i / 8] |= (uint64_t)be[len - 1 - i] << (8 * (i % 8));
    free(be);
    return words;
}

static void openssl_decrypt(struct rsa_bench *r, int k, uint8_t *out) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(r->key, NULL);
    size_t out_len = r->len;
    if (ctx == NULL || EVP_PKEY_decrypt_init(ctx) != 1 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) != 1 ||
        EVP_PKEY_decrypt(ctx, out, &out_len, r->ct[k], r->len) != 1 || out_len != r->len)
        fail("OpenSSL RSA decryption");
    EVP_PKEY_CTX_free(ctx);
}

static void setup(struct rsa_bench *r, int bits, const struct crypto_mb *mb) {
    memset(r, 0, sizeof *r);
    r->bits = bits;
    r->len = (size_t)bits / 8;
    r->half = r->len / 2;
    r->key = EVP_RSA_gen((unsigned)bits);
    if (r->key == NULL) fail("RSA key generation");
    BIGNUM *n = param(r->key, OSSL_PKEY_PARAM_RSA_N);
    r->p = param(r->key, OSSL_PKEY_PARAM_RSA_FACTOR1);
    r->q = param(r->key, OSSL_PKEY_PARAM_RSA_FACTOR2);
    r->dp = param(r->key, OSSL_PKEY_PARAM_RSA_EXPONENT1);
    r->dq = param(r->key, OSSL_PKEY_PARAM_RSA_EXPONENT2);
    r->qinv = param(r->key, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
    r->bn = BN_CTX_new();
    for (int k = 0; k < LANES; k++) {
        BIGNUM *c = BN_new();
        if (BN_rand_range(c, n) != 1) fail("random ciphertext");
        r->ct[k] = bench_calloc(r->len);
        r->out[k] = bench_calloc(r->len);
        r->expected[k] = bench_calloc(r->len);
        BN_bn2binpad(c, r->ct[k], (int)r->len);
        BN_free(c);
        openssl_decrypt(r, k, r->expected[k]);
    }
    BN_free(n);

    uint8_t *p = bench_calloc(r->half), *q = bench_calloc(r->half);
    BN_bn2binpad(r->p, p, (int)r->half);
    BN_bn2binpad(r->q, q, (int)r->half);
    if (oblivex_mont_ctx_new(p, r->half, &r->ctx_p) != OBLIVEX_OK ||
        oblivex_mont_ctx_new(q, r->half, &r->ctx_q) != OBLIVEX_OK)
        fail("oblivex_mont_ctx_new");
    uint8_t *dp = bench_calloc(r->half), *dq = bench_calloc(r->half), *qinv = bench_calloc(r->half);
    BN_bn2binpad(r->dp, dp, (int)r->half);
    BN_bn2binpad(r->dq, dq, (int)r->half);
    BN_bn2binpad(r->qinv, qinv, (int)r->half);
    if (oblivex_rsa_crt_key_new(p, r->half, q, r->half, dp, r->half, dq, r->half, qinv, r->half, &r->rsa_key) !=
        OBLIVEX_OK)
        fail("oblivex_rsa_crt_key_new");
    free(p);
    free(q);
    free(dp);
    free(dq);
    free(qinv);
    r->cts = bench_calloc(LANES * r->len);
    r->plain = bench_calloc(LANES * r->len);
    for (int k = 0; k < LANES; k++) memcpy(r->cts + k * r->len, r->ct[k], r->len);
    /* Bases are the full ciphertexts (reduced mod p and q inside). */
    r->bases = bench_calloc(2 * LANES * r->len);
    r->exps = bench_calloc(2 * LANES * r->half);
    r->halves = bench_calloc(2 * LANES * r->half);
    for (int k = 0; k < LANES; k++) {
        memcpy(r->bases + (2 * k) * r->len, r->ct[k], r->len);
        memcpy(r->bases + (2 * k + 1) * r->len, r->ct[k], r->len);
        BN_bn2binpad(r->dp, r->exps + (2 * k) * r->half, (int)r->half);
        BN_bn2binpad(r->dq, r->exps + (2 * k + 1) * r->half, (int)r->half);
        r->ctxs[2 * k] = r->ctx_p;
        r->ctxs[2 * k + 1] = r->ctx_q;
    }

    if (mb != NULL) {
        r->mb = mb;
        r->mb_method = mb->rsa_crt_method(bits);
        if (r->mb_method != NULL) {
            int size = mb->rsa_method_buffer_size(r->mb_method);
            r->mb_buffer = aligned_alloc(64, ((size_t)size + 63) / 64 * 64);
            r->mb_p = words_of(r->p, r->half);
            r->mb_q = words_of(r->q, r->half);
            r->mb_dp = words_of(r->dp, r->half);
            r->mb_dq = words_of(r->dq, r->half);
            r->mb_qinv = words_of(r->qinv, r->half);
            for (int k = 0; k < LANES; k++) r->mb_out[k] = bench_calloc(r->len);
        }
    }
}

static void teardown(struct rsa_bench *r) {
    for (int k = 0; k < LANES; k++) {
        free(r->ct[k]); free(r->out[k]); free(r->expected[k]); free(r->mb_out[k]);
    }
    free(r->bases); free(r->exps); free(r->halves); free(r->mb_buffer); free(r->cts); free(r->plain);
    oblivex_rsa_crt_key_free(r->rsa_key);
    free(r->mb_p); free(r->mb_q); free(r->mb_dp); free(r->mb_dq); free(r->mb_qinv);
    oblivex_mont_ctx_free(r->ctx_p);
    oblivex_mont_ctx_free(r->ctx_q);
    BN_free(r->p); BN_free(r->q); BN_clear_free(r->dp); BN_clear_free(r->dq); BN_free(r->qinv);
    BN_CTX_free(r->bn);
    EVP_PKEY_free(r->key);
}

/* 8 decryptions with the key API. */
static void step_oblivex(void *s) {
    struct rsa_bench *r = s;
    size_t written;
    if (oblivex_rsa_private_batch(r->rsa_key, r->cts, LANES * r->len, LANES, r->plain, LANES * r->len, &written) !=
        OBLIVEX_OK)
        fail("oblivex_rsa_private_batch");
}

/* 8 decryptions: the 16 halves in one call, then Garner's formula
 * m = m_q + q·((m_p − m_q)·qinv mod p). */
static void step_oblivex_multi(void *s) {
    struct rsa_bench *r = s;
    size_t written;
    if (oblivex_mod_exp_batch_multi(r->ctxs, r->bases, 2 * LANES * r->len, r->exps, 2 * LANES * r->half,
                                    2 * LANES, r->halves, 2 * LANES * r->half, &written) != OBLIVEX_OK)
        fail("oblivex_mod_exp_batch_multi");
    BN_CTX_start(r->bn);
    BIGNUM *mp = BN_CTX_get(r->bn), *mq = BN_CTX_get(r->bn), *h = BN_CTX_get(r->bn), *m = BN_CTX_get(r->bn);
    for (int k = 0; k < LANES; k++) {
        BN_bin2bn(r->halves + (2 * k) * r->half, (int)r->half, mp);
        BN_bin2bn(r->halves + (2 * k + 1) * r->half, (int)r->half, mq);
        if (!BN_mod_sub(h, mp, mq, r->p, r->bn) || !BN_mod_mul(h, h, r->qinv, r->p, r->bn) ||
            !BN_mul(m, h, r->q, r->bn) || !BN_add(m, m, mq) || BN_bn2binpad(m, r->out[k], (int)r->len) < 0)
            fail("CRT recombination");
    }
    BN_CTX_end(r->bn);
}

static void step_crypto_mb(void *s) {
    struct rsa_bench *r = s;
    const uint64_t *p[LANES], *q[LANES], *dp[LANES], *dq[LANES], *qinv[LANES];
    const uint8_t *from[LANES];
    for (int k = 0; k < LANES; k++) {
        p[k] = r->mb_p; q[k] = r->mb_q; dp[k] = r->mb_dp; dq[k] = r->mb_dq; qinv[k] = r->mb_qinv;
        from[k] = r->ct[k];
    }
    if (r->mb->rsa_private_crt(from, r->mb_out, p, q, dp, dq, qinv, r->bits, r->mb_method, r->mb_buffer) != 0)
        fail("mbx_rsa_private_crt_mb8");
}

static void step_openssl(void *s) {
    struct rsa_bench *r = s;
    openssl_decrypt(r, 0, r->out[0]);
}

static void check(struct rsa_bench *r) {
    step_oblivex(r);
    for (int k = 0; k < LANES; k++)
        if (memcmp(r->plain + k * r->len, r->expected[k], r->len) != 0) fail("oblivex vs OpenSSL");
    step_oblivex_multi(r);
    for (int k = 0; k < LANES; k++)
        if (memcmp(r->out[k], r->expected[k], r->len) != 0) fail("oblivex multi-modulus batch vs OpenSSL");
    if (r->mb_method != NULL) {
        step_crypto_mb(r);
        for (int k = 0; k < LANES; k++)
            if (memcmp(r->mb_out[k], r->expected[k], r->len) != 0) fail("crypto_mb vs OpenSSL");
    }
}

int main(int argc, char **argv) {
    int json = 0, key_api_only = 0, n_sizes = 2, sizes[MAX_SIZES] = {2048, 4096};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--key-api-only") == 0) key_api_only = 1;
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--bits") == 0 && i + 1 < argc) {
            n_sizes = 0;
            for (char *tok = strtok(argv[++i], ","); tok && n_sizes < MAX_SIZES; tok = strtok(NULL, ","))
                sizes[n_sizes++] = atoi(tok);
        } else {
            fprintf(stderr, "usage: %s [--json] [--key-api-only] [--runs N] [--seconds S] [--bits 2048,4096]\n",
                    argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > BENCH_MAX_RUNS || seconds <= 0) {
        fprintf(stderr, "--runs must be 1..%d and --seconds positive\n", BENCH_MAX_RUNS);
        return 2;
    }
    for (int i = 0; i < n_sizes; i++) {
        if (sizes[i] < 1024 || sizes[i] > 8192 || sizes[i] % 128 != 0) {
            fprintf(stderr, "RSA sizes must be multiples of 128 in 1024..8192\n");
            return 2;
        }
    }
    struct crypto_mb mb;
    const char *mb_missing = NULL;
    int have_mb = crypto_mb_load(&mb, &mb_missing) == 0;
    if (!json) {
        printf("bench_rsa_crt: raw RSA private operations (CRT), one core, one key, 8 ciphertexts per round; "
               "interleaved rounds, median of %d\n",
               runs);
        printf("oblivex %s (backend %s), crypto_mb: %s\n\n", oblivex_version(), oblivex_backend_name(),
               have_mb ? mb.version : mb_missing);
        printf("%6s  %-10s %12s %10s %14s\n", "bits", "impl", "µs/op", "ops/s", "time/oblivex");
    } else if (!have_mb) {
        printf("{\"impl\":\"crypto_mb\",\"missing\":\"%s\"}\n", mb_missing);
    }
    for (int i = 0; i < n_sizes; i++) {
        struct rsa_bench r;
        setup(&r, sizes[i], have_mb ? &mb : NULL);
        check(&r);
        struct bench_contender c[4] = {
            {"oblivex", step_oblivex, &r, LANES, {0}, 0},
            {"ox-multi", key_api_only ? NULL : step_oblivex_multi, &r, LANES, {0}, 0},
            {"crypto_mb", r.mb_method != NULL && !key_api_only ? step_crypto_mb : NULL, &r, LANES, {0}, 0},
            {"openssl", key_api_only ? NULL : step_openssl, &r, 1, {0}, 0},
        };
        bench_rounds(c, 4, runs, seconds);
        for (int k = 0; k < 4; k++) {
            if (c[k].median < 0) continue;
            if (json)
                printf("{\"impl\":\"rsa-crt-%s\",\"bits\":%d,\"us_per_op\":%.2f,\"ops_per_s\":%.1f}\n", c[k].name,
                       sizes[i], c[k].median, 1e6 / c[k].median);
            else
                printf("%6d  %-10s %12.1f %10.1f %13.2fx\n", sizes[i], c[k].name, c[k].median, 1e6 / c[k].median,
                       c[k].median / c[0].median);
        }
        if (!json) printf("\n");
        teardown(&r);
    }
    return 0;
}
