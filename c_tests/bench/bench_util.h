/* Timing and operands shared by the benchmarks (bench_modexp, bench_rsa_crt):
 * interleaved rounds, medians, a fixed pseudo-random stream. */
#ifndef OBLIVEX_BENCH_UTIL_H
#define OBLIVEX_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_MAX_RUNS 31

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t bench_rng = 0x5eed5eed12345678ULL;

static inline uint64_t bench_random(void) {
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return bench_rng;
}

static inline void bench_random_bytes(uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)bench_random();
}

static inline void *bench_calloc(size_t n) {
    void *p = calloc(n == 0 ? 1 : n, 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* One contender: `step` does `per_call` operations on `state`. */
struct bench_contender {
    const char *name;
    void (*step)(void *state);
    void *state;
    int per_call;
    double us[BENCH_MAX_RUNS]; /* µs per operation, one per round */
    double median;             /* filled by bench_rounds; < 0: not measured */
};

/* Calls `step` until `seconds` have passed (after a short warm-up);
 * returns µs per operation. */
static inline double bench_time_once(struct bench_contender *c, double seconds) {
    double warm = bench_now();
    do c->step(c->state);
    while (bench_now() - warm < seconds / 8);
    long calls = 0;
    double start = bench_now(), elapsed;
    do {
        c->step(c->state);
        calls++;
        elapsed = bench_now() - start;
    } while (elapsed < seconds);
    return elapsed * 1e6 / (double)(calls * c->per_call);
}

static inline int bench_compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* `runs` rounds, each timing every contender once, in turn (so a drift of
 * the machine's speed affects them alike); each median into `median`.
 * Contenders with a NULL step are skipped (median -1). */
static inline void bench_rounds(struct bench_contender *c, int n, int runs, double seconds) {
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < n; i++)
            if (c[i].step != NULL) c[i].us[r] = bench_time_once(&c[i], seconds);
    for (int i = 0; i < n; i++) {
        if (c[i].step == NULL) {
            c[i].median = -1;
            continue;
        }
        qsort(c[i].us, (size_t)runs, sizeof c[i].us[0], bench_compare_doubles);
        c[i].median = c[i].us[runs / 2];
    }
}

#endif
