/* bench_modexp: µs per constant-time modular exponentiation (full-length
 * random exponent, one core) for oblivex (IFMA and portable backends),
 * OpenSSL's BN_mod_exp_mont_consttime and BN_mod_exp_mont_consttime_x2 (at
 * 1024 bits, where OpenSSL 3.0 accelerates it with IFMA) and GMP's
 * mpz_powm_sec, with the ratio of each to oblivex-ifma. Every figure is the
 * median of several timed runs.
 *
 *   bench_modexp [--json] [--runs N] [--seconds S] [--bits 1024,2048,...]
 *
 * oblivex picks its backend once per process (OBLIVEX_BACKEND), so the
 * oblivex rows come from child runs of this program (--oblivex-only), one
 * per backend, back to back with the others. */
#include <gmp.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oblivex.h"

#define MAX_SIZES 8
#define MAX_RUNS 31
#define BATCH 16 /* values per oblivex call: two 8-lane groups */

static int runs = 5;
static double seconds = 0.2;
static uint64_t rng = 0x5eed5eed12345678ULL;

static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void random_bytes(uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)next_rand();
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One timing: calls `step` (which does `per_call` exponentiations) until
 * `seconds` have passed; returns µs per exponentiation. */
typedef void (*step_fn)(void *state);
static double time_once(step_fn step, void *state, int per_call) {
    double warm = now();
    do step(state); /* warm-up: caches, page faults, the clock's ramp */
    while (now() - warm < seconds / 4);
    long calls = 0;
    double start = now(), elapsed;
    do {
        step(state);
        calls++;
        elapsed = now() - start;
    } while (elapsed < seconds);
    return elapsed * 1e6 / (double)(calls * per_call);
}

static double median_us(step_fn step, void *state, int per_call) {
    double t[MAX_RUNS];
    for (int r = 0; r < runs; r++) t[r] = time_once(step, state, per_call);
    qsort(t, (size_t)runs, sizeof t[0], compare_doubles);
    return t[runs / 2];
}

/* ---- the implementations ---------------------------------------------- */

struct operands {
    size_t len;
    uint8_t *m, *bases, *exps, *out; /* BATCH values */
    BIGNUM *bn_m, *bn_m2, *bn_a[2], *bn_p[2], *bn_r[2];
    BN_MONT_CTX *mont, *mont2;
    BN_CTX *bn_ctx;
    mpz_t gm, ga, gp, gr;
    oblivex_mont_ctx *ox;
};

static void step_oblivex(void *s) {
    struct operands *o = s;
    size_t written;
    if (oblivex_mod_exp_batch(o->ox, o->bases, BATCH * o->len, o->exps, BATCH * o->len, BATCH, o->out,
                              BATCH * o->len, &written) != OBLIVEX_OK) {
        fprintf(stderr, "oblivex failed\n");
        exit(1);
    }
}

static void step_openssl(void *s) {
    struct operands *o = s;
    if (!BN_mod_exp_mont_consttime(o->bn_r[0], o->bn_a[0], o->bn_p[0], o->bn_m, o->bn_ctx, o->mont)) exit(1);
}

static void step_openssl_x2(void *s) {
    struct operands *o = s;
    if (!BN_mod_exp_mont_consttime_x2(o->bn_r[0], o->bn_a[0], o->bn_p[0], o->bn_m, o->mont, o->bn_r[1],
                                      o->bn_a[1], o->bn_p[1], o->bn_m2, o->mont2, o->bn_ctx))
        exit(1);
}

static void step_gmp(void *s) {
    struct operands *o = s;
    mpz_powm_sec(o->gr, o->ga, o->gp, o->gm);
}

static void random_odd_modulus(uint8_t *m, size_t len) {
    if (len == 0) return;
    random_bytes(m, len);
    m[0] |= 0x80;
    m[len - 1] |= 1;
}

static void *xcalloc(size_t n) {
    void *p = calloc(n == 0 ? 1 : n, 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void setup(struct operands *o, size_t bits) {
    memset(o, 0, sizeof *o);
    o->len = bits / 8;
    o->m = xcalloc(o->len);
    o->bases = xcalloc(BATCH * o->len);
    o->exps = xcalloc(BATCH * o->len);
    o->out = xcalloc(BATCH * o->len);
    random_odd_modulus(o->m, o->len);
    random_bytes(o->bases, BATCH * o->len);
    random_bytes(o->exps, BATCH * o->len);
    for (int k = 0; k < BATCH; k++) o->exps[k * o->len] |= 0x80; /* full length */
    if (oblivex_mont_ctx_new(o->m, o->len, &o->ox) != OBLIVEX_OK) exit(1);

    uint8_t *m2 = xcalloc(o->len);
    random_odd_modulus(m2, o->len);
    o->bn_ctx = BN_CTX_new();
    o->bn_m = BN_bin2bn(o->m, (int)o->len, NULL);
    o->bn_m2 = BN_bin2bn(m2, (int)o->len, NULL);
    free(m2);
    for (int k = 0; k < 2; k++) {
        o->bn_a[k] = BN_bin2bn(o->bases + k * o->len, (int)o->len, NULL);
        o->bn_p[k] = BN_bin2bn(o->exps + k * o->len, (int)o->len, NULL);
        o->bn_r[k] = BN_new();
        BN_set_flags(o->bn_p[k], BN_FLG_CONSTTIME);
    }
    BN_mod(o->bn_a[0], o->bn_a[0], o->bn_m, o->bn_ctx);
    BN_mod(o->bn_a[1], o->bn_a[1], o->bn_m2, o->bn_ctx);
    o->mont = BN_MONT_CTX_new();
    o->mont2 = BN_MONT_CTX_new();
    BN_MONT_CTX_set(o->mont, o->bn_m, o->bn_ctx);
    BN_MONT_CTX_set(o->mont2, o->bn_m2, o->bn_ctx);

    mpz_inits(o->gm, o->ga, o->gp, o->gr, NULL);
    mpz_import(o->gm, o->len, 1, 1, 0, 0, o->m);
    mpz_import(o->ga, o->len, 1, 1, 0, 0, o->bases);
    mpz_import(o->gp, o->len, 1, 1, 0, 0, o->exps);
    mpz_mod(o->ga, o->ga, o->gm);
}

static void teardown(struct operands *o) {
    oblivex_mont_ctx_free(o->ox);
    free(o->m); free(o->bases); free(o->exps); free(o->out);
    BN_free(o->bn_m); BN_free(o->bn_m2);
    for (int k = 0; k < 2; k++) { BN_free(o->bn_a[k]); BN_free(o->bn_p[k]); BN_free(o->bn_r[k]); }
    BN_MONT_CTX_free(o->mont); BN_MONT_CTX_free(o->mont2);
    BN_CTX_free(o->bn_ctx);
    mpz_clears(o->gm, o->ga, o->gp, o->gr, NULL);
}

/* ---- the machine's multiplier --------------------------------------------- */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* VPMADD52LUQ per second on this core: 12 independent accumulators (its
 * latency is about 8 cycles, so fewer would measure latency), and operands
 * the compiler must treat as changing every iteration (otherwise it may hoist
 * the loop-invariant product and time additions instead). */
__attribute__((target("avx512f,avx512ifma"))) static double ifma_peak_rate(void) {
    volatile long long seed_b = 12345, seed_c = 678;
    __m512i b = _mm512_set1_epi64(seed_b), c = _mm512_set1_epi64(seed_c);
    __m512i a0 = b, a1 = c, a2 = b, a3 = c, a4 = b, a5 = c, a6 = b, a7 = c, a8 = b, a9 = c, a10 = b, a11 = c;
    const long iters = 20000000;
    double start = now();
    for (long i = 0; i < iters; i++) {
        a0 = _mm512_madd52lo_epu64(a0, b, c); a1 = _mm512_madd52lo_epu64(a1, b, c);
        a2 = _mm512_madd52lo_epu64(a2, b, c); a3 = _mm512_madd52lo_epu64(a3, b, c);
        a4 = _mm512_madd52lo_epu64(a4, b, c); a5 = _mm512_madd52lo_epu64(a5, b, c);
        a6 = _mm512_madd52lo_epu64(a6, b, c); a7 = _mm512_madd52lo_epu64(a7, b, c);
        a8 = _mm512_madd52lo_epu64(a8, b, c); a9 = _mm512_madd52lo_epu64(a9, b, c);
        a10 = _mm512_madd52lo_epu64(a10, b, c); a11 = _mm512_madd52lo_epu64(a11, b, c);
        __asm__ volatile("" : "+v"(b), "+v"(c), "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5),
                         "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11));
    }
    double elapsed = now() - start;
    __m512i sum = _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3)),
                                   _mm512_add_epi64(_mm512_add_epi64(a4, a5), _mm512_add_epi64(a6, a7)));
    sum = _mm512_add_epi64(sum, _mm512_add_epi64(_mm512_add_epi64(a8, a9), _mm512_add_epi64(a10, a11)));
    volatile long long sink = _mm512_reduce_add_epi64(sum);
    (void)sink;
    return 12.0 * (double)iters / elapsed;
}

static double machine_ifma_rate(void) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512ifma")) return -1;
    return ifma_peak_rate();
}
#else
static double machine_ifma_rate(void) { return -1; }
#endif

/* ---- driver ------------------------------------------------------------- */

/* oblivex µs/op for `backend` at each size, from a child run; -1 if the
 * backend is unsupported here. */
static void oblivex_child(const char *self, const char *backend, const size_t *sizes, int n_sizes,
                          double *us) {
    char cmd[4096], bits_list[256] = "";
    for (int i = 0; i < n_sizes; i++) {
        char one[32];
        snprintf(one, sizeof one, "%s%zu", i ? "," : "", sizes[i]);
        strncat(bits_list, one, sizeof bits_list - strlen(bits_list) - 1);
    }
    snprintf(cmd, sizeof cmd, "OBLIVEX_BACKEND=%s '%s' --oblivex-only --runs %d --seconds %g --bits %s",
             backend, self, runs, seconds, bits_list);
    for (int i = 0; i < n_sizes; i++) us[i] = -1;
    FILE *child = popen(cmd, "r");
    if (child == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, child) != NULL) {
        size_t bits;
        double value;
        if (sscanf(line, "%zu %lf", &bits, &value) == 2) {
            for (int i = 0; i < n_sizes; i++)
                if (sizes[i] == bits) us[i] = value;
        }
    }
    pclose(child);
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
    if (runs < 1 || runs > MAX_RUNS || seconds <= 0) {
        fprintf(stderr, "--runs must be 1..%d and --seconds positive\n", MAX_RUNS);
        return 2;
    }
    for (int i = 0; i < n_sizes; i++) {
        if (sizes[i] < 64 || sizes[i] % 8 != 0 || sizes[i] > 8192) {
            fprintf(stderr, "sizes must be multiples of 8 in 64..8192\n");
            return 2;
        }
    }

    if (oblivex_only) {
        if (strcmp(oblivex_backend_name(), "unsupported") == 0) return 0;
        for (int i = 0; i < n_sizes; i++) {
            struct operands o;
            setup(&o, sizes[i]);
            printf("%zu %.3f\n", sizes[i], median_us(step_oblivex, &o, BATCH));
            fflush(stdout);
            teardown(&o);
        }
        return 0;
    }

    double ifma[MAX_SIZES], portable[MAX_SIZES];
    oblivex_child(argv[0], "ifma", sizes, n_sizes, ifma);
    oblivex_child(argv[0], "portable", sizes, n_sizes, portable);

    double rate = machine_ifma_rate();
    if (!json) {
        printf("bench_modexp: µs per exponentiation (full-length exponent, one core, median of %d runs)\n", runs);
        printf("oblivex %s, %s, GMP %s\n", oblivex_version(), OpenSSL_version(OPENSSL_VERSION), gmp_version);
        if (rate > 0) printf("VPMADD52 issue rate of this core, measured now: %.2f G/s\n", rate / 1e9);
        printf("\n");
        printf("%6s %14s %14s %14s %14s %14s\n", "bits", "oblivex-ifma", "oblivex-port", "openssl-ct",
               "openssl-x2", "gmp-powm-sec");
    }
    for (int i = 0; i < n_sizes; i++) {
        struct operands o;
        setup(&o, sizes[i]);
        double ssl = median_us(step_openssl, &o, 1);
        double x2 = sizes[i] == 1024 ? median_us(step_openssl_x2, &o, 2) : -1;
        double gmp = median_us(step_gmp, &o, 1);
        teardown(&o);
        const char *names[5] = {"oblivex-ifma", "oblivex-portable", "openssl-consttime", "openssl-consttime-x2",
                                "gmp-powm-sec"};
        double us[5] = {ifma[i], portable[i], ssl, x2, gmp};
        if (json) {
            if (i == 0 && rate > 0) printf("{\"machine\":\"vpmadd52_per_s\",\"value\":%.4g}\n", rate);
            for (int k = 0; k < 5; k++)
                if (us[k] >= 0)
                    printf("{\"impl\":\"%s\",\"bits\":%zu,\"us_per_op\":%.2f}\n", names[k], sizes[i], us[k]);
            continue;
        }
        printf("%6zu", sizes[i]);
        for (int k = 0; k < 5; k++) {
            if (us[k] < 0) printf(" %14s", "-");
            else printf(" %14.1f", us[k]);
        }
        printf("\n%6s", "ratio");
        for (int k = 0; k < 5; k++) {
            if (us[k] < 0 || ifma[i] <= 0) printf(" %14s", "-");
            else printf(" %13.2fx", us[k] / ifma[i]);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
