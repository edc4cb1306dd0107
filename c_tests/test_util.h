/* Shared helpers of the C tests: a seeded generator for test data, check
 * macros that count failures, and status assertions. Test data only: the
 * generator is not cryptographic. */
#ifndef OBLIVEX_TEST_UTIL_H
#define OBLIVEX_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oblivex.h"

static int test_failures = 0;
static uint64_t test_rng_state = 0x0b11e7c0ffee1234ULL;

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            test_failures++;                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,    \
                    __LINE__, #cond);                                 \
            fprintf(stderr, __VA_ARGS__);                             \
            fputc('\n', stderr);                                      \
            if (test_failures > 20) {                                 \
                fprintf(stderr, "too many failures, stopping\n");     \
                exit(1);                                              \
            }                                                         \
        }                                                             \
    } while (0)

#define CHECK_STATUS(got, want, what)                                              \
    CHECK((got) == (want), "%s: got %d (%s), want %d (%s)", (what), (int)(got),    \
          oblivex_status_str((int)(got)), (int)(want), oblivex_status_str((int)(want)))

/* ctest's code for a skipped test (SKIP_RETURN_CODE in CMakeLists.txt). */
#define TEST_SKIPPED 77

/* Seeds the generator from TEST_SEED (decimal) if set, and says which seed.
 * A run forced onto a backend this CPU lacks (OBLIVEX_BACKEND=ifma without
 * AVX-512 IFMA, =avx2 without AVX2, =mulx without BMI2 and ADX: the library
 * then names no backend) is
 * skipped; test_backend.c checks that case itself. */
static inline void test_seed(const char *name) {
    const char *env = getenv("TEST_SEED");
    const char *forced = getenv("OBLIVEX_BACKEND");
    if (env != NULL) {
        test_rng_state = strtoull(env, NULL, 10);
    }
    if (forced != NULL && strcmp(oblivex_backend_name(), "unsupported") == 0) {
        if (strcmp(forced, "ifma") == 0) {
            printf("%s: skipped, this CPU has no AVX-512 IFMA\n", name);
            exit(TEST_SKIPPED);
        }
        if (strcmp(forced, "avx2") == 0) {
            printf("%s: skipped, this CPU has no AVX2\n", name);
            exit(TEST_SKIPPED);
        }
        if (strcmp(forced, "mulx") == 0) {
            printf("%s: skipped, this CPU has no BMI2 and ADX\n", name);
            exit(TEST_SKIPPED);
        }
    }
    printf("%s: seed %llu, backend %s\n", name, (unsigned long long)test_rng_state,
           oblivex_backend_name());
}

static inline uint64_t test_rand(void) { /* SplitMix64 */
    uint64_t z = (test_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform-ish in [lo, hi]. */
static inline size_t test_range(size_t lo, size_t hi) {
    return lo + (size_t)(test_rand() % (uint64_t)(hi - lo + 1));
}

static inline void test_bytes(uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)test_rand();
    }
}

/* A random odd modulus of exactly `bits` bits, big-endian in ceil(bits/8) bytes. */
static inline void test_odd_modulus(uint8_t *m, size_t bits) {
    size_t len = (bits + 7) / 8, top = bits - 8 * (len - 1);
    test_bytes(m, len);
    m[0] &= (uint8_t)(0xffu >> (8 - top));
    m[0] |= (uint8_t)(1u << (top - 1));
    m[len - 1] |= 1;
}

static inline void *test_malloc(size_t len) {
    void *p = malloc(len == 0 ? 1 : len);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static inline int test_all_bytes(const uint8_t *buf, size_t len, uint8_t value) {
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != value) {
            return 0;
        }
    }
    return 1;
}

/* An OPRF-mode server's evaluation (no info, no proof): what the checked
 * and threshold clients' servers run. */
static inline oblivex_status test_evaluate(const oblivex_oprf_server *server, const uint8_t *blinded,
                                           size_t blinded_len, uint8_t *evaluated, size_t evaluated_capacity,
                                           size_t *evaluated_written) {
    return oblivex_oprf_server_evaluate(server, blinded, blinded_len, NULL, 0, evaluated, evaluated_capacity,
                                        evaluated_written, NULL, 0, NULL);
}

static inline int test_finish(const char *name) {
    if (test_failures != 0) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
