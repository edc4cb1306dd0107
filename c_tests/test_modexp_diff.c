/* Differential test of oblivex's batch exponentiation against OpenSSL's
 * BN_mod_exp_mont_consttime and GMP's mpz_powm_sec: at least 10,000 random
 * cases over odd moduli of 64..4096 bits (every size around the multiples of
 * 52 and 64 bits and the avx2 backend's digit-size and kernel-shape
 * changes, the largest moduli, then log-uniform sizes), random batch sizes
 * (so lane groups end in partial tails), bases shorter and longer than the
 * modulus, exponents of every length, and per-value-modulus batches. Uses
 * only the public header. */
#include <gmp.h>
#include <openssl/bn.h>

#include "test_util.h"

#define MIN_CASES 10000
#define MAX_BATCH 19
#define MAX_MODULI 12

/* The avx2 backend's digits go from 29 to 28 bits above 897-bit moduli and
 * from 28 to 27 above 3,554 (src/mp/backend/avx2/constants.rs), and its
 * kernels change shape between 40 and 41, 100 and 101 (Karatsuba, in the
 * golden-cove profile) and 120 and 121 digits of 28 bits: 1118/1119,
 * 2798/2799 and 3358/3359 bits (avx2/tuning.rs). 8,192 bits is the largest
 * modulus any backend takes. */
static const size_t interesting_bits[] = {
    64,   65,   103,  104,  105,  127,  128,  129,  155,  156,  157,  511,  512,  513,
    519,  520,  521,  896,  897,  898,  1023, 1024, 1025, 1039, 1040, 1041, 1118, 1119,
    1535, 1536, 1537, 2047, 2048, 2049, 2079, 2080, 2081, 2798, 2799, 3071, 3072, 3073,
    3119, 3120, 3121, 3358, 3359, 3554, 3555, 4095, 4096, 8191, 8192};

/* Above this many bits a batch is short and its exponents at most 64 bytes:
 * the kernels run at full size all the same, and the test stays quick. */
#define LARGE_BITS 4096

static size_t cases = 0;

/* Bits of the next modulus: first every interesting size, then log-uniform
 * in [64, 4096] (most cases small, every scale covered). */
static size_t next_bits(size_t group) {
    size_t n_interesting = sizeof(interesting_bits) / sizeof(interesting_bits[0]);
    if (group < n_interesting) {
        return interesting_bits[group];
    }
    size_t log2_bits = test_range(6 * 16, 12 * 16); /* 2^(k/16) */
    size_t bits = (size_t)1 << (log2_bits / 16);
    bits += (size_t)((double)bits * (double)(log2_bits % 16) / 16.0);
    return bits < 64 ? 64 : (bits > 4096 ? 4096 : bits);
}

/* Fills a value with a random pattern: random bytes mostly, sometimes all
 * zero, all ones, or a single low bit (edge values). */
static void fill_operand(uint8_t *buf, size_t len) {
    switch (test_range(0, 15)) {
    case 0: memset(buf, 0, len); break;
    case 1: memset(buf, 0xff, len); break;
    case 2: memset(buf, 0, len); buf[len - 1] = 1; break;
    default: test_bytes(buf, len); break;
    }
}

/* Checks one result (mod_len bytes at `got`) against both references. */
static void check_one(const uint8_t *m, size_t m_len, const uint8_t *a, size_t a_len,
                      const uint8_t *p, size_t p_len, const uint8_t *got, size_t got_len,
                      BN_CTX *bn_ctx) {
    BIGNUM *M = BN_bin2bn(m, (int)m_len, NULL), *A = BN_bin2bn(a, (int)a_len, NULL);
    BIGNUM *P = BN_bin2bn(p, (int)p_len, NULL), *R = BN_new();
    BIGNUM *G = BN_bin2bn(got, (int)got_len, NULL);
    CHECK(M && A && P && R && G, "BN allocation");
    CHECK(BN_mod_exp_mont_consttime(R, A, P, M, bn_ctx, NULL) == 1, "OpenSSL failed");
    CHECK(BN_cmp(R, G) == 0, "oblivex != OpenSSL: %d-bit modulus, %zu-byte base, %zu-byte exponent",
          BN_num_bits(M), a_len, p_len);

    if (!BN_is_zero(P)) { /* mpz_powm_sec requires a positive exponent */
        mpz_t gm, ga, gp, gr, gg;
        mpz_inits(gm, ga, gp, gr, gg, NULL);
        mpz_import(gm, m_len, 1, 1, 0, 0, m);
        mpz_import(ga, a_len, 1, 1, 0, 0, a);
        mpz_import(gp, p_len, 1, 1, 0, 0, p);
        mpz_import(gg, got_len, 1, 1, 0, 0, got);
        mpz_powm_sec(gr, ga, gp, gm);
        CHECK(mpz_cmp(gr, gg) == 0, "oblivex != GMP: %zu-bit modulus", mpz_sizeinbase(gm, 2));
        mpz_clears(gm, ga, gp, gr, gg, NULL);
    }
    BN_free(M); BN_free(A); BN_free(P); BN_free(R); BN_free(G);
    cases++;
}

/* One batch under one modulus of `bits` bits. */
static void single_modulus_batch(size_t bits, BN_CTX *bn_ctx) {
    size_t m_len = (bits + 7) / 8;
    size_t count = test_range(1, bits > LARGE_BITS ? 3 : MAX_BATCH);
    /* Bases: usually the modulus length, sometimes shorter or longer (>= m). */
    size_t base_len = m_len;
    switch (test_range(0, 3)) {
    case 0: base_len = test_range(1, m_len); break;
    case 1: base_len = m_len + test_range(1, 70); break;
    default: break;
    }
    /* Exponents: full length half of the time, else any length up to m + 8. */
    size_t exp_len = test_range(0, 1) ? m_len : test_range(1, m_len + 8);
    if (bits > LARGE_BITS) {
        exp_len = test_range(1, 64);
    }

    uint8_t *m = test_malloc(m_len), *bases = test_malloc(count * base_len);
    uint8_t *exps = test_malloc(count * exp_len), *out = test_malloc(count * m_len);
    test_odd_modulus(m, bits);
    for (size_t i = 0; i < count; i++) {
        fill_operand(bases + i * base_len, base_len);
        fill_operand(exps + i * exp_len, exp_len);
    }
    if (base_len == m_len && count > 1) {
        memcpy(bases, m, m_len); /* base = m exactly */
    }

    oblivex_mont_ctx *ctx = NULL;
    CHECK_STATUS(oblivex_mont_ctx_new(m, m_len, &ctx), OBLIVEX_OK, "ctx_new");
    CHECK(oblivex_mont_ctx_modulus_len(ctx) == m_len, "modulus_len");
    size_t written = 0;
    oblivex_status st = oblivex_mod_exp_batch(ctx, bases, count * base_len, exps, count * exp_len, count,
                                              out, count * m_len, &written);
    CHECK_STATUS(st, OBLIVEX_OK, "mod_exp_batch");
    CHECK(written == count * m_len, "written %zu", written);
    if (st == OBLIVEX_OK) {
        for (size_t i = 0; i < count; i++) {
            check_one(m, m_len, bases + i * base_len, base_len, exps + i * exp_len, exp_len,
                      out + i * m_len, m_len, bn_ctx);
        }
    }
    oblivex_mont_ctx_free(ctx);
    free(m); free(bases); free(exps); free(out);
}

/* One batch where every value has its own modulus (several sizes mixed,
 * some moduli shared, as in RSA-CRT). */
static void per_value_moduli_batch(BN_CTX *bn_ctx) {
    size_t n_moduli = test_range(1, MAX_MODULI), count = test_range(1, MAX_BATCH);
    size_t lens[MAX_MODULI], max_len = 0;
    uint8_t *moduli[MAX_MODULI];
    oblivex_mont_ctx *ctxs[MAX_MODULI];
    for (size_t k = 0; k < n_moduli; k++) {
        size_t bits = next_bits(1000);
        lens[k] = (bits + 7) / 8;
        max_len = lens[k] > max_len ? lens[k] : max_len;
        moduli[k] = test_malloc(lens[k]);
        test_odd_modulus(moduli[k], bits);
        ctxs[k] = NULL;
        CHECK_STATUS(oblivex_mont_ctx_new(moduli[k], lens[k], &ctxs[k]), OBLIVEX_OK, "ctx_new");
    }
    size_t base_len = max_len + test_range(0, 8), exp_len = test_range(1, max_len);
    const oblivex_mont_ctx **which = test_malloc(count * sizeof(*which));
    size_t *which_k = test_malloc(count * sizeof(size_t));
    uint8_t *bases = test_malloc(count * base_len), *exps = test_malloc(count * exp_len);
    uint8_t *out = test_malloc(count * max_len);
    size_t result_len = 0; /* every result as long as the longest modulus used */
    for (size_t i = 0; i < count; i++) {
        which_k[i] = test_range(0, n_moduli - 1);
        which[i] = ctxs[which_k[i]];
        result_len = lens[which_k[i]] > result_len ? lens[which_k[i]] : result_len;
        fill_operand(bases + i * base_len, base_len);
        fill_operand(exps + i * exp_len, exp_len);
    }
    /* The constant-time call and the public-exponent one must agree with
     * OpenSSL alike. */
    typedef oblivex_status (*multi_call)(const oblivex_mont_ctx *const *, const uint8_t *, size_t,
                                         const uint8_t *, size_t, size_t, uint8_t *, size_t, size_t *);
    const multi_call calls[2] = {oblivex_mod_exp_batch_multi, oblivex_mod_exp_batch_multi_vartime};
    const char *const names[2] = {"mod_exp_batch_multi", "mod_exp_batch_multi_vartime"};
    for (size_t c = 0; c < 2; c++) {
        size_t written = 0;
        memset(out, 0, count * max_len);
        oblivex_status st = calls[c](which, bases, count * base_len, exps, count * exp_len, count, out,
                                     count * max_len, &written);
        CHECK_STATUS(st, OBLIVEX_OK, names[c]);
        CHECK(written == count * result_len, "%s written %zu", names[c], written);
        if (st != OBLIVEX_OK) {
            continue;
        }
        for (size_t i = 0; i < count; i++) {
            size_t k = which_k[i];
            const uint8_t *slot = out + i * result_len;
            CHECK(test_all_bytes(slot, result_len - lens[k], 0), "left padding of result %zu", i);
            check_one(moduli[k], lens[k], bases + i * base_len, base_len, exps + i * exp_len,
                      exp_len, slot, result_len, bn_ctx);
        }
    }
    for (size_t k = 0; k < n_moduli; k++) {
        oblivex_mont_ctx_free(ctxs[k]);
        free(moduli[k]);
    }
    free(which); free(which_k); free(bases); free(exps); free(out);
}

int main(void) {
    test_seed("test_modexp_diff");
    BN_CTX *bn_ctx = BN_CTX_new();
    CHECK(bn_ctx != NULL, "BN_CTX_new");
    size_t group = 0, multi_batches = 0;
    while (cases < MIN_CASES) {
        if (group % 8 == 7) {
            per_value_moduli_batch(bn_ctx);
            multi_batches++;
        } else {
            single_modulus_batch(next_bits(group), bn_ctx);
        }
        group++;
    }
    BN_CTX_free(bn_ctx);
    printf("test_modexp_diff: %zu cases in %zu batches (%zu with per-value moduli)\n", cases, group,
           multi_batches);
    return test_finish("test_modexp_diff");
}
