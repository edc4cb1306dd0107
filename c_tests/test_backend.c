/* OBLIVEX_BACKEND is honoured: run with OBLIVEX_BACKEND set to the backend
 * named in argv[1]. "portable" and "auto" must work, and "auto" must pick
 * the fastest backend this CPU runs (ifma, else avx2, else mulx, else
 * portable); "ifma" must work exactly when this CPU has AVX-512 IFMA,
 * "avx2" exactly when it has AVX2, "mulx" exactly when it has BMI2 and ADX,
 * and otherwise fail with OBLIVEX_ERR_UNSUPPORTED_BACKEND (never a crash or
 * a silent fallback); any other name is unsupported. */
#include "test_util.h"

static int cpu_has_ifma(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
#else
    return 0;
#endif
}

static int cpu_has_avx2(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static int cpu_has_mulx(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
#else
    return 0;
#endif
}

/* What "auto" must pick here: the first backend, fastest first, that this
 * CPU runs. */
static const char *fastest_backend(void) {
    if (cpu_has_ifma()) return "ifma";
    if (cpu_has_avx2()) return "avx2";
    if (cpu_has_mulx()) return "mulx";
    return "portable";
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_backend <expected backend>\n");
        return 2;
    }
    const char *requested = argv[1];
    const char *env = getenv("OBLIVEX_BACKEND");
    CHECK(env != NULL && strcmp(env, requested) == 0, "OBLIVEX_BACKEND=%s must be set", requested);
    /* Not test_seed(), which skips a run forced onto a backend the CPU
     * lacks: here that run is the point. */
    printf("test_backend: requested %s, backend %s\n", requested, oblivex_backend_name());

    int supported = strcmp(requested, "portable") == 0 || strcmp(requested, "auto") == 0 ||
                    (strcmp(requested, "ifma") == 0 && cpu_has_ifma()) ||
                    (strcmp(requested, "avx2") == 0 && cpu_has_avx2()) ||
                    (strcmp(requested, "mulx") == 0 && cpu_has_mulx());
    const char *name = oblivex_backend_name();
    const uint8_t m[] = {0x01, 0x00, 0x01}, base[] = {2}, exponent[] = {20};
    oblivex_mont_ctx *ctx = NULL;
    CHECK_STATUS(oblivex_mont_ctx_new(m, sizeof m, &ctx), OBLIVEX_OK, "ctx_new works on any backend");
    uint8_t out[3] = {0xee, 0xee, 0xee};
    size_t written = 0;
    oblivex_status st = oblivex_mod_exp_batch(ctx, base, sizeof base, exponent, sizeof exponent, 1, out, sizeof out,
                                              &written);
    if (supported) {
        CHECK_STATUS(st, OBLIVEX_OK, requested);
        CHECK(strcmp(name, "unsupported") != 0, "backend name %s", name);
        const char *expected = strcmp(requested, "auto") == 0 ? fastest_backend() : requested;
        CHECK(strcmp(name, expected) == 0, "backend name %s, requested %s, expected %s", name, requested, expected);
        /* 2^20 mod 65537 = 1048576 mod 65537 = 65521 = 0x00fff1 */
        CHECK(out[0] == 0x00 && out[1] == 0xff && out[2] == 0xf1, "2^20 mod 65537");
    } else {
        CHECK_STATUS(st, OBLIVEX_ERR_UNSUPPORTED_BACKEND, requested);
        CHECK(strcmp(name, "unsupported") == 0, "backend name %s", name);
        CHECK(out[0] == 0xee && written == 0, "nothing written");
    }
    oblivex_mont_ctx_free(ctx);
    return test_finish("test_backend");
}
