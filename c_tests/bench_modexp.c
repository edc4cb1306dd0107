/* bench_modexp: µs per constant-time modular exponentiation (full-length
 * random exponents, one core) for oblivex beside the other constant-time
 * implementations, measured in interleaved rounds in one process (the
 * figure is each one's median):
 *
 *   oblivex          oblivex_mod_exp_batch, one modulus, 16 values per call
 *   oblivex-multi    oblivex_mod_exp_batch_multi, 8 moduli, one per value
 *   oblivex-one      oblivex_mod_exp_batch with one value per call (the
 *                    one-value path: MULX/ADX where the CPU has it)
 *   crypto_mb        Intel's mbx_exp{1024,2048,3072,4096}_mb8 on the same 8
 *                    moduli, when installed (see bench/crypto_mb.h)
 *   openssl          BN_mod_exp_mont_consttime (precomputed BN_MONT_CTX)
 *   openssl-x2       BN_mod_exp_mont_consttime_x2 (two values per call)
 *   gmp              mpz_powm_sec
 *   oblivex-portable the portable backend (a child run: the backend is
 *                    chosen once per process)
 *
 * Before timing, every implementation's results are checked equal.
 *
 *   bench_modexp [--json] [--runs N] [--seconds S] [--bits 1024,2048,...]
 */
#include <gmp.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_util.h"
#include "bench/crypto_mb.h"
#include "oblivex.h"

#define MAX_SIZES 8
#define BATCH 16 /* values per one-modulus call: two 8-lane groups */
#define LANES 8  /* moduli of the per-value batch, and of crypto_mb */

static int runs = 5;
static double seconds = 0.2;

/* ---- operands ------------------------------------------------------------ */

struct operands {
    size_t bits, len, words;
    /* big-endian: BATCH bases and exponents; LANES moduli */
    uint8_t *bases, *exps, *moduli, *out, *out_multi, *out_one;
    oblivex_mont_ctx *ctx[LANES];
    /* little-endian words for crypto_mb */
    uint64_t *mb_base[LANES], *mb_exp[LANES], *mb_mod[LANES], *mb_out[LANES];
    uint8_t *mb_buffer;
    int mb_buffer_len;
    mbx_exp_fn mb_fn;
    /* OpenSSL and GMP: values 0 and 1 (moduli 0 and 1) */
    BIGNUM *bn_m[2], *bn_a[2], *bn_p[2], *bn_r[2];
    BN_MONT_CTX *mont[2];
    BN_CTX *bn_ctx;
    mpz_t gm, ga, gp, gr;
};

static void to_words(const uint8_t *be, size_t len, uint64_t *words) {
    memset(words, 0, (len + 7) / 8 * 8);
    for (size_t i = 0; i < len; i++) words[i / 8] |= (uint64_t)be[len - 1 - i] << (8 * (i % 8));
}

static void from_words(const uint64_t *words, size_t len, uint8_t *be) {
    for (size_t i = 0; i < len; i++) be[len - 1 - i] = (uint8_t)(words[i / 8] >> (8 * (i % 8)));
}

static void setup(struct operands *o, size_t bits, const struct crypto_mb *mb) {
    memset(o, 0, sizeof *o);
    o->bits = bits;
    o->len = bits / 8;
    o->words = (o->len + 7) / 8;
    size_t len = o->len;
    o->bases = bench_calloc(BATCH * len);
    o->exps = bench_calloc(BATCH * len);
    o->moduli = bench_calloc(LANES * len);
    o->out = bench_calloc(BATCH * len);
    o->out_multi = bench_calloc(LANES * len);
    o->out_one = bench_calloc(len);
    bench_random_bytes(o->moduli, LANES * len);
    bench_random_bytes(o->bases, BATCH * len);
    bench_random_bytes(o->exps, BATCH * len);
    for (int k = 0; k < LANES; k++) {
        uint8_t *m = o->moduli + k * len;
        m[0] |= 0x80; /* exactly `bits` bits */
        m[len - 1] |= 1;
        o->bases[k * len] &= 0x7f; /* below every modulus: crypto_mb wants base < m */
        if (oblivex_mont_ctx_new(m, len, &o->ctx[k]) != OBLIVEX_OK) exit(1);
    }
    for (int k = 0; k < BATCH; k++) {
        o->exps[k * len] |= 0x80; /* full length */
        o->bases[k * len] &= 0x7f;
    }
    if (mb != NULL && (o->mb_fn = crypto_mb_exp(mb, (int)bits)) != NULL) {
        for (int k = 0; k < LANES; k++) {
            o->mb_base[k] = bench_calloc(o->words * 8);
            o->mb_exp[k] = bench_calloc(o->words * 8);
            o->mb_mod[k] = bench_calloc(o->words * 8);
            o->mb_out[k] = bench_calloc(o->words * 8);
            to_words(o->bases + k * len, len, o->mb_base[k]);
            to_words(o->exps + k * len, len, o->mb_exp[k]);
            to_words(o->moduli + k * len, len, o->mb_mod[k]);
        }
        o->mb_buffer_len = mb->exp_buffer_size((int)bits);
        o->mb_buffer = aligned_alloc(64, ((size_t)o->mb_buffer_len + 63) / 64 * 64);
    }
    o->bn_ctx = BN_CTX_new();
    for (int k = 0; k < 2; k++) {
        o->bn_m[k] = BN_bin2bn(o->moduli + k * len, (int)len, NULL);
        o->bn_a[k] = BN_bin2bn(o->bases + k * len, (int)len, NULL);
        o->bn_p[k] = BN_bin2bn(o->exps + k * len, (int)len, NULL);
        o->bn_r[k] = BN_new();
        BN_set_flags(o->bn_p[k], BN_FLG_CONSTTIME);
        o->mont[k] = BN_MONT_CTX_new();
        BN_MONT_CTX_set(o->mont[k], o->bn_m[k], o->bn_ctx);
    }
    mpz_inits(o->gm, o->ga, o->gp, o->gr, NULL);
    mpz_import(o->gm, len, 1, 1, 0, 0, o->moduli);
    mpz_import(o->ga, len, 1, 1, 0, 0, o->bases);
    mpz_import(o->gp, len, 1, 1, 0, 0, o->exps);
}

static void teardown(struct operands *o) {
    for (int k = 0; k < LANES; k++) {
        oblivex_mont_ctx_free(o->ctx[k]);
        free(o->mb_base[k]); free(o->mb_exp[k]); free(o->mb_mod[k]); free(o->mb_out[k]);
    }
    free(o->mb_buffer);
    free(o->bases); free(o->exps); free(o->moduli); free(o->out); free(o->out_multi); free(o->out_one);
    for (int k = 0; k < 2; k++) {
        BN_free(o->bn_m[k]); BN_free(o->bn_a[k]); BN_free(o->bn_p[k]); BN_free(o->bn_r[k]);
        BN_MONT_CTX_free(o->mont[k]);
    }
    BN_CTX_free(o->bn_ctx);
    mpz_clears(o->gm, o->ga, o->gp, o->gr, NULL);
}

/* ---- one step of each implementation --------------------------------------- */

static void fail(const char *what) {
    fprintf(stderr, "bench_modexp: %s failed\n", what);
    exit(1);
}

static void step_oblivex(void *s) {
    struct operands *o = s;
    size_t written;
    if (oblivex_mod_exp_batch(o->ctx[0], o->bases, BATCH * o->len, o->exps, BATCH * o->len, BATCH, o->out,
                              BATCH * o->len, &written) != OBLIVEX_OK)
        fail("oblivex_mod_exp_batch");
}

/* One value per call (count 1): the one-value path (the MULX/ADX backend
 * where the CPU has BMI2 and ADX), against OpenSSL's one value. */
static void step_oblivex_one(void *s) {
    struct operands *o = s;
    size_t written;
    if (oblivex_mod_exp_batch(o->ctx[0], o->bases, o->len, o->exps, o->len, 1, o->out_one, o->len, &written) !=
        OBLIVEX_OK)
        fail("oblivex_mod_exp_batch, one value");
}

static void step_oblivex_multi(void *s) {
    struct operands *o = s;
    size_t written;
    if (oblivex_mod_exp_batch_multi((const oblivex_mont_ctx *const *)o->ctx, o->bases, LANES * o->len, o->exps,
                                    LANES * o->len, LANES, o->out_multi, LANES * o->len,
                                    &written) != OBLIVEX_OK)
        fail("oblivex_mod_exp_batch_multi");
}

static void step_crypto_mb(void *s) {
    struct operands *o = s;
    if (o->mb_fn(o->mb_out, (const uint64_t *const *)o->mb_base, (const uint64_t *const *)o->mb_exp,
                  (int)o->bits, (const uint64_t *const *)o->mb_mod, (int)o->bits, o->mb_buffer,
                  o->mb_buffer_len) != 0)
        fail("crypto_mb");
}

static void step_openssl(void *s) {
    struct operands *o = s;
    if (!BN_mod_exp_mont_consttime(o->bn_r[0], o->bn_a[0], o->bn_p[0], o->bn_m[0], o->bn_ctx, o->mont[0]))
        fail("BN_mod_exp_mont_consttime");
}

static void step_openssl_x2(void *s) {
    struct operands *o = s;
    if (!BN_mod_exp_mont_consttime_x2(o->bn_r[0], o->bn_a[0], o->bn_p[0], o->bn_m[0], o->mont[0], o->bn_r[1],
                                      o->bn_a[1], o->bn_p[1], o->bn_m[1], o->mont[1], o->bn_ctx))
        fail("BN_mod_exp_mont_consttime_x2");
}

static void step_gmp(void *s) {
    struct operands *o = s;
    mpz_powm_sec(o->gr, o->ga, o->gp, o->gm);
}

/* Every implementation's results agree (value 0 with modulus 0 for all,
 * the 8 per-value results between oblivex and crypto_mb). */
static void check_results(struct operands *o) {
    step_oblivex(o);
    step_oblivex_multi(o);
    step_oblivex_one(o);
    step_openssl(o);
    step_gmp(o);
    uint8_t *expected = bench_calloc(o->len), *value = bench_calloc(o->len);
    BN_bn2binpad(o->bn_r[0], expected, (int)o->len);
    if (memcmp(expected, o->out, o->len) != 0 || memcmp(expected, o->out_multi, o->len) != 0 ||
        memcmp(expected, o->out_one, o->len) != 0)
        fail("oblivex vs OpenSSL");
    size_t gmp_len = (mpz_sizeinbase(o->gr, 2) + 7) / 8;
    memset(value, 0, o->len);
    mpz_export(value + o->len - gmp_len, NULL, 1, 1, 0, 0, o->gr);
    if (memcmp(expected, value, o->len) != 0) fail("GMP vs OpenSSL");
    if (o->mb_fn != NULL) {
        step_crypto_mb(o);
        for (int k = 0; k < LANES; k++) {
            from_words(o->mb_out[k], o->len, value);
            if (memcmp(value, o->out_multi + k * o->len, o->len) != 0) fail("crypto_mb vs oblivex");
        }
    }
    free(expected);
    free(value);
}

/* ---- the portable backend, from a child run ---------------------------------- */

static void portable_child(const char *self, const size_t *sizes, int n_sizes, double *us) {
    char cmd[4096], bits_list[256] = "";
    for (int i = 0; i < n_sizes; i++) {
        char one[32];
        snprintf(one, sizeof one, "%s%zu", i ? "," : "", sizes[i]);
        strncat(bits_list, one, sizeof bits_list - strlen(bits_list) - 1);
    }
    snprintf(cmd, sizeof cmd, "OBLIVEX_BACKEND=portable '%s' --oblivex-only --runs %d --seconds %g --bits %s",
             self, runs, seconds, bits_list);
    for (int i = 0; i < n_sizes; i++) us[i] = -1;
    FILE *child = popen(cmd, "r");
    if (child == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, child) != NULL) {
        size_t bits;
        double value;
        if (sscanf(line, "%zu %lf", &bits, &value) == 2)
            for (int i = 0; i < n_sizes; i++)
                if (sizes[i] == bits) us[i] = value;
    }
    pclose(child);
}

/* ---- driver -------------------------------------------------------------------- */

enum { OBLIVEX, OBLIVEX_MULTI, OBLIVEX_ONE, CRYPTO_MB, OPENSSL, OPENSSL_X2, GMP, CONTENDERS };

static void report(int json, size_t bits, const char *name, double us, double reference) {
    if (us < 0) return;
    if (json) {
        printf("{\"impl\":\"%s\",\"bits\":%zu,\"us_per_op\":%.2f,\"over_oblivex\":%.3f}\n", name, bits, us,
               us / reference);
    } else {
        printf("%6zu  %-17s %10.1f %10.1f %9.2fx\n", bits, name, us, 1e6 / us, us / reference);
    }
}

int main(int argc, char **argv) {
    int json = 0, oblivex_only = 0, n_sizes = 4;
    size_t sizes[MAX_SIZES] = {1024, 2048, 3072, 4096};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--oblivex-only") == 0) oblivex_only = 1;
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--bits") == 0 && i + 1 < argc) {
            n_sizes = 0;
            for (char *tok = strtok(argv[++i], ","); tok && n_sizes < MAX_SIZES; tok = strtok(NULL, ","))
                sizes[n_sizes++] = (size_t)strtoul(tok, NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--json] [--runs N] [--seconds S] [--bits 1024,2048,...]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > BENCH_MAX_RUNS || seconds <= 0) {
        fprintf(stderr, "--runs must be 1..%d and --seconds positive\n", BENCH_MAX_RUNS);
        return 2;
    }
    for (int i = 0; i < n_sizes; i++) {
        if (sizes[i] < 64 || sizes[i] % 8 != 0 || sizes[i] > 8192) {
            fprintf(stderr, "sizes must be multiples of 8 in 64..8192\n");
            return 2;
        }
    }

    if (oblivex_only) {
        for (int i = 0; i < n_sizes; i++) {
            struct operands o;
            setup(&o, sizes[i], NULL);
            struct bench_contender c = {"oblivex", step_oblivex, &o, BATCH, {0}, 0};
            bench_rounds(&c, 1, runs, seconds);
            printf("%zu %.3f\n", sizes[i], c.median);
            fflush(stdout);
            teardown(&o);
        }
        return 0;
    }

    struct crypto_mb mb;
    const char *mb_missing = NULL;
    int have_mb = crypto_mb_load(&mb, &mb_missing) == 0;
    double portable[MAX_SIZES];
    portable_child(argv[0], sizes, n_sizes, portable);
    if (json) {
        if (!have_mb) printf("{\"impl\":\"crypto_mb\",\"missing\":\"%s\"}\n", mb_missing);
    } else {
        printf("bench_modexp: µs per exponentiation (full-length exponents, one core; interleaved rounds, "
               "median of %d)\n",
               runs);
        printf("oblivex %s (backend %s), %s, GMP %s, crypto_mb: %s\n\n", oblivex_version(), oblivex_backend_name(),
               OpenSSL_version(OPENSSL_VERSION), gmp_version, have_mb ? mb.version : mb_missing);
        printf("%6s  %-17s %10s %10s %10s\n", "bits", "implementation", "µs/exp", "exp/s", "time/oblivex");
    }
    for (int i = 0; i < n_sizes; i++) {
        struct operands o;
        setup(&o, sizes[i], have_mb ? &mb : NULL);
        check_results(&o);
        struct bench_contender c[CONTENDERS] = {
            [OBLIVEX] = {"oblivex", step_oblivex, &o, BATCH, {0}, 0},
            [OBLIVEX_MULTI] = {"oblivex-multi", step_oblivex_multi, &o, LANES, {0}, 0},
            [OBLIVEX_ONE] = {"oblivex-one", step_oblivex_one, &o, 1, {0}, 0},
            [CRYPTO_MB] = {"crypto_mb", o.mb_fn != NULL ? step_crypto_mb : NULL, &o, LANES, {0}, 0},
            [OPENSSL] = {"openssl", step_openssl, &o, 1, {0}, 0},
            [OPENSSL_X2] = {"openssl-x2", step_openssl_x2, &o, 2, {0}, 0},
            [GMP] = {"gmp", step_gmp, &o, 1, {0}, 0},
        };
        bench_rounds(c, CONTENDERS, runs, seconds);
        teardown(&o);
        double reference = c[OBLIVEX].median;
        for (int k = 0; k < CONTENDERS; k++) report(json, sizes[i], c[k].name, c[k].median, reference);
        report(json, sizes[i], "oblivex-portable", portable[i], reference);
        if (!json && c[CRYPTO_MB].median > 0)
            printf("%6s  crypto_mb / oblivex-multi: %.2f (throughput of oblivex over crypto_mb's)\n", "",
                   c[CRYPTO_MB].median / c[OBLIVEX_MULTI].median);
        if (!json) printf("\n");
        fflush(stdout);
    }
    return 0;
}
