/* ct_trace's own test (ctest ct_trace_selftest, through run-cases.sh): small
 * regions whose verdict is known, each run under ct_trace with 4 secrets.
 *
 *   ct_trace_selftest --list          every case, the exit status ct_trace
 *                                     must give (0 same trace, 1 divergence,
 *                                     3 unclassified) and whether it needs
 *                                     AVX-512F (1) or not (0)
 *   ct_trace_selftest CASE VARIANT    one run (ct_trace appends VARIANT)
 *
 * Every kind of observation is shown to catch its leak and to pass its
 * constant-time counterpart: branches, memory addresses (through straight-
 * line segments too), opmasks of masked accesses, a gather's and a
 * scatter's element addresses, string counts, division operands, and the
 * fixed randomness; a thread started inside a region fails closed. */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define MARK(which) __asm__ volatile("int3" ::"a"(0x6f626c7674726365ULL), "D"((uint64_t)(which)) : "memory")

/* The secrets of runs 0-3: odd and even, small and large. */
static const uint64_t SECRETS[4] = {3, 6, 9, 12};

static volatile uint64_t table[16];
static volatile uint64_t sink;

/* Every entry read, the wanted one kept by a mask: the same trace. */
__attribute__((noinline)) static void constant_time(uint64_t s) {
    uint64_t acc = 0;
    for (uint64_t i = 0; i < 16; i++) {
        uint64_t mask = (uint64_t)0 - (uint64_t)(i == (s & 15));
        __asm__("" : "+r"(mask));
        acc |= table[i] & mask;
    }
    sink = acc;
}

__attribute__((noinline)) static void secret_branch(uint64_t s) {
    if (s & 1) sink = table[1];
}

__attribute__((noinline)) static void secret_index(uint64_t s) { sink = table[s & 15]; }

/* The same fixed random bytes in every run: the trace stays the same. */
__attribute__((noinline)) static void getrandom_in_region(uint64_t s) {
    uint8_t buffer[16];
    if (getrandom(buffer, sizeof buffer, 0) != (ssize_t)sizeof buffer) abort();
    sink = table[buffer[0] & 15] ^ s;
}

__attribute__((noinline)) static void secret_dividend(uint64_t s) {
    volatile uint64_t divisor = 7;
    sink = (s << 40) / divisor;
}

__attribute__((noinline)) static void secret_length_copy(uint64_t s) {
    static char from[64], to[64];
    char *destination = to, *source = from;
    size_t n = (size_t)(s & 31) + 1;
    __asm__ volatile("rep movsb" : "+D"(destination), "+S"(source), "+c"(n) : : "memory");
}

static void *idle(void *arg) { return arg; }

__attribute__((noinline)) static void thread_in_region(uint64_t s) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, idle, NULL) != 0) abort();
    pthread_join(thread, NULL);
    sink = s;
}

__attribute__((target("avx512f"), noinline)) static void masked_load(uint64_t s, int secret_mask) {
    static uint64_t data[8] __attribute__((aligned(64))) = {1, 2, 3, 4, 5, 6, 7, 8};
    __mmask8 k = (__mmask8)(secret_mask ? s : 0x5a);
    __m512i v = _mm512_maskz_loadu_epi64(k, data);
    v = _mm512_add_epi64(v, _mm512_set1_epi64((long long)s));
    _mm512_storeu_si512((void *)data, v);
}

/* A masked load through k1 whose bits 8..15 hold the secret: beyond the 8
 * elements of a qword load (not compared: the same trace), within the 16
 * of a dword load (a divergence). */
__attribute__((target("avx512f"), noinline)) static void masked_load_mask_bits_8_to_15(uint64_t s, int dwords) {
    static uint64_t data[8] __attribute__((aligned(64))) = {1, 2, 3, 4, 5, 6, 7, 8};
    uint32_t k = 0x5a | (uint32_t)((s & 0xff) << 8);
    if (dwords) {
        __asm__ volatile("kmovw %[k], %%k1\n\tvmovdqu32 (%[p]), %%zmm0%{%%k1%}%{z%}"
                         : : [k] "r"(k), [p] "r"(data) : "xmm0", "k1", "memory");
    } else {
        __asm__ volatile("kmovw %[k], %%k1\n\tvmovdqu64 (%[p]), %%zmm0%{%%k1%}%{z%}"
                         : : [k] "r"(k), [p] "r"(data) : "xmm0", "k1", "memory");
    }
}

__attribute__((target("avx512f"), noinline)) static void gather(uint64_t s, int secret_index) {
    static long long data[64];
    __m512i index = _mm512_set_epi64(56, 48, 40, 32, 24, 16, 8, 0);
    if (secret_index) index = _mm512_add_epi64(index, _mm512_set1_epi64((long long)(s & 7)));
    __m512i v = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, index, data, 8);
    v = _mm512_add_epi64(v, _mm512_set1_epi64((long long)s));
    _mm512_i64scatter_epi64(data, _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), v, 8);
}

__attribute__((target("avx512f"), noinline)) static void scatter_secret_index(uint64_t s) {
    static long long data[64];
    __m512i index = _mm512_add_epi64(_mm512_set_epi64(56, 48, 40, 32, 24, 16, 8, 0),
                                     _mm512_set1_epi64((long long)(s & 7)));
    _mm512_i64scatter_epi64(data, index, _mm512_set1_epi64(1), 8);
}

static void masked_load_public_mask(uint64_t s) { masked_load(s, 0); }
static void masked_load_secret_mask(uint64_t s) { masked_load(s, 1); }
static void qword_load_secret_mask_above_8(uint64_t s) { masked_load_mask_bits_8_to_15(s, 0); }
static void dword_load_secret_mask_bits_8_to_15(uint64_t s) { masked_load_mask_bits_8_to_15(s, 1); }
static void gather_public_index(uint64_t s) { gather(s, 0); }
static void gather_secret_index(uint64_t s) { gather(s, 1); }

struct selftest {
    const char *name;
    int expected; /* ct_trace's exit status */
    int avx512;
    void (*run)(uint64_t);
};

static const struct selftest CASES[] = {
    {"constant_time", 0, 0, constant_time},
    {"secret_branch", 1, 0, secret_branch},
    {"secret_index", 1, 0, secret_index},
    {"getrandom_in_region", 0, 0, getrandom_in_region},
    {"secret_dividend", 1, 0, secret_dividend},
    {"secret_length_copy", 1, 0, secret_length_copy},
    {"thread_in_region", 3, 0, thread_in_region},
    {"masked_load_public_mask", 0, 1, masked_load_public_mask},
    {"masked_load_secret_mask", 1, 1, masked_load_secret_mask},
    {"qword_load_secret_mask_above_8", 0, 1, qword_load_secret_mask_above_8},
    {"dword_load_secret_mask_bits_8_to_15", 1, 1, dword_load_secret_mask_bits_8_to_15},
    {"gather_public_index", 0, 1, gather_public_index},
    {"gather_secret_index", 1, 1, gather_secret_index},
    {"scatter_secret_index", 1, 1, scatter_secret_index},
};

int main(int argc, char **argv) {
    size_t count = sizeof CASES / sizeof CASES[0];
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < count; i++) printf("%s %d %d\n", CASES[i].name, CASES[i].expected, CASES[i].avx512);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: ct_trace_selftest --list | CASE VARIANT\n");
        return 2;
    }
    int variant = atoi(argv[2]);
    for (size_t i = 0; i < count; i++) {
        if (strcmp(argv[1], CASES[i].name) == 0 && variant >= 0 && variant < 4) {
            uint64_t secret = SECRETS[variant];
            CASES[i].run(SECRETS[0]); /* warm-up: lazy binding, first touches */
            MARK(1);
            CASES[i].run(secret);
            MARK(2);
            return 0;
        }
    }
    fprintf(stderr, "ct_trace_selftest: no case %s or variant %s\n", argv[1], argv[2]);
    return 2;
}
