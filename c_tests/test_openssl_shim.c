/* The header-only OpenSSL shim behaves exactly like BN_mod_exp: random odd
 * and even moduli, negative operands, aliasing of r with the inputs, m = 1,
 * p = 0, oversize operands, the batch form, and a context reused across
 * calls (the BN_MONT_CTX form); which values of a batch go to OpenSSL, and
 * by which of its functions, for each count and each kind of operand. */
#include <stddef.h>

#include <openssl/bn.h>

/* What the header hands to OpenSSL (its test hook, defined before it is
 * included): values to BN_mod_exp_mont_consttime and to BN_mod_exp. */
static size_t handed_consttime, handed_plain;
static void on_fallback(size_t n, int consttime) {
    if (consttime) {
        handed_consttime += n;
    } else {
        handed_plain += n;
    }
}
#define OBX_DETAIL_ON_FALLBACK(n, consttime) on_fallback((n), (consttime))

#include "oblivex_openssl.h"
#include "test_util.h"

static BIGNUM *random_bn(size_t max_bytes, int allow_negative) {
    uint8_t buf[600];
    size_t len = test_range(0, max_bytes);
    test_bytes(buf, len);
    BIGNUM *x = BN_bin2bn(buf, (int)len, NULL);
    if (allow_negative && test_range(0, 5) == 0) {
        BN_set_negative(x, 1);
    }
    return x;
}

static void compare_single(BN_CTX *ctx, size_t cases) {
    for (size_t i = 0; i < cases; i++) {
        BIGNUM *m = random_bn(1 + i % 300, 1), *a = random_bn(320, 1), *p = random_bn(40, 1);
        BIGNUM *want = BN_new(), *got = BN_new();
        if (i % 7 == 0) {
            BN_set_word(m, 1);
        }
        if (i % 11 == 0) {
            BN_zero(p);
        }
        int ok_want = BN_mod_exp(want, a, p, m, ctx);
        int ok_got = oblivex_BN_mod_exp(got, a, p, m, ctx);
        CHECK(ok_want == ok_got, "case %zu: OpenSSL returned %d, shim %d (m has %d bits, %s)", i,
              ok_want, ok_got, BN_num_bits(m), BN_is_odd(m) ? "odd" : "even");
        if (ok_want && ok_got) {
            CHECK(BN_cmp(want, got) == 0, "case %zu: results differ", i);
        }
        /* r aliasing a: r = a^p mod m in place. */
        if (ok_want) {
            BIGNUM *alias = BN_dup(a);
            int ok_alias = oblivex_BN_mod_exp(alias, alias, p, m, ctx);
            CHECK(ok_alias == 1 && BN_cmp(alias, want) == 0, "case %zu: r aliasing a", i);
            BN_free(alias);
        }
        BN_free(m); BN_free(a); BN_free(p); BN_free(want); BN_free(got);
    }
}

static void compare_batch(BN_CTX *ctx, size_t rounds) {
    enum { N = 13 };
    for (size_t round = 0; round < rounds; round++) {
        BIGNUM *m = random_bn(256, 0);
        BN_set_bit(m, 0); /* odd; half the rounds even below */
        if (round % 2 == 1) {
            BN_clear_bit(m, 0);
        }
        if (BN_is_zero(m) || BN_is_one(m)) {
            BN_set_word(m, 1009);
        }
        BIGNUM *a[N], *p[N], *r[N];
        size_t n = test_range(1, N);
        for (size_t i = 0; i < n; i++) {
            a[i] = random_bn(300, 1);
            p[i] = random_bn(1 + (round * 7 + i) % 64, 1);
            r[i] = BN_new();
        }
        CHECK(oblivex_BN_mod_exp_batch(r, (const BIGNUM *const *)a, (const BIGNUM *const *)p, m, n,
                                       ctx) == 1,
              "batch round %zu", round);
        for (size_t i = 0; i < n; i++) {
            BIGNUM *want = BN_new();
            CHECK(BN_mod_exp(want, a[i], p[i], m, ctx) == 1, "OpenSSL");
            CHECK(BN_cmp(want, r[i]) == 0, "batch round %zu element %zu", round, i);
            BN_free(want); BN_free(a[i]); BN_free(p[i]); BN_free(r[i]);
        }
        BN_free(m);
    }
}

/* Which path each count takes: the values of a batch that the header hands
 * to BN_mod_exp_mont_consttime (its tail), per backend, and that a batch
 * split so, its results written over its own bases, is still right. */
static void path_per_count(BN_CTX *ctx) {
    const char *backend = oblivex_backend_name();
    for (size_t n = 1; n <= 17; n++) {
        size_t expected = n; /* portable and mulx, one value at a time: every value on OpenSSL */
        if (strcmp(backend, "avx2") == 0) {
            expected = n % 4; /* a tail of 1 to 3 values of a 4-lane group */
        } else if (strcmp(backend, "ifma") == 0) {
            expected = n % 8 <= 2 ? n % 8 : 0; /* a tail of 1 or 2 of an 8-lane group */
        }
        CHECK(obx_detail_values_for_openssl(n) == expected, "%s, %zu values: %zu on OpenSSL, expected %zu", backend,
              n, obx_detail_values_for_openssl(n), expected);
    }
    enum { N = 11 };
    BIGNUM *m = random_bn(128, 0), *r[N], *want[N], *p[N];
    BN_set_bit(m, 1000);
    BN_set_bit(m, 0);
    for (size_t i = 0; i < N; i++) {
        r[i] = random_bn(128, 0);
        p[i] = random_bn(128, 0);
        want[i] = BN_new();
        CHECK(BN_mod_exp(want[i], r[i], p[i], m, ctx) == 1, "OpenSSL");
    }
    handed_consttime = handed_plain = 0;
    CHECK(oblivex_BN_mod_exp_batch(r, (const BIGNUM *const *)r, (const BIGNUM *const *)p, m, N, ctx) == 1,
          "a batch over its own bases");
    CHECK(handed_consttime == obx_detail_values_for_openssl(N) && handed_plain == 0,
          "%s, %d values: %zu handed to the consttime path and %zu to BN_mod_exp", backend, N, handed_consttime,
          handed_plain);
    for (size_t i = 0; i < N; i++) {
        CHECK(BN_cmp(want[i], r[i]) == 0, "element %zu of a batch over its own bases", i);
        BN_free(r[i]); BN_free(p[i]); BN_free(want[i]);
    }
    BN_free(m);
}

/* One context for m, reused by many calls, gives BN_mod_exp's results; a
 * modulus oblivex does not take has no context and goes to OpenSSL. */
static void reused_context(BN_CTX *ctx) {
    BIGNUM *m = random_bn(128, 0);
    BN_set_bit(m, 1023);
    BN_set_bit(m, 0);
    oblivex_mont_ctx *mont = oblivex_BN_mont_ctx_new(m);
    CHECK(mont != NULL && oblivex_mont_ctx_modulus_len(mont) == 128, "context of a 1024-bit modulus");
    for (int i = 0; i < 50; i++) {
        BIGNUM *a = random_bn(140, 1), *p = random_bn(128, 1), *want = BN_new(), *got = BN_new();
        CHECK(BN_mod_exp(want, a, p, m, ctx) == 1, "OpenSSL");
        CHECK(oblivex_BN_mod_exp_mont(got, a, p, m, ctx, mont) == 1 && BN_cmp(want, got) == 0,
              "reused context, call %d", i);
        BN_free(a); BN_free(p); BN_free(want); BN_free(got);
    }
    enum { N = 9 };
    BIGNUM *a[N], *p[N], *r[N];
    for (size_t i = 0; i < N; i++) {
        a[i] = random_bn(128, 1);
        p[i] = random_bn(128, 0);
        r[i] = BN_new();
    }
    CHECK(oblivex_BN_mod_exp_batch_mont(r, (const BIGNUM *const *)a, (const BIGNUM *const *)p, m, N, ctx,
                                        mont) == 1,
          "batch with a reused context");
    for (size_t i = 0; i < N; i++) {
        BIGNUM *want = BN_new();
        CHECK(BN_mod_exp(want, a[i], p[i], m, ctx) == 1 && BN_cmp(want, r[i]) == 0, "batch element %zu", i);
        BN_free(want); BN_free(a[i]); BN_free(p[i]); BN_free(r[i]);
    }
    oblivex_mont_ctx_free(mont);
    BN_clear_bit(m, 0);
    CHECK(oblivex_BN_mont_ctx_new(m) == NULL, "no context for an even modulus");
    BIGNUM *two = BN_new(), *ten = BN_new(), *got = BN_new(), *want = BN_new();
    BN_set_word(two, 2); BN_set_word(ten, 1000);
    CHECK(BN_mod_exp(want, two, ten, m, ctx) == 1 && oblivex_BN_mod_exp_mont(got, two, ten, m, ctx, NULL) == 1 &&
              BN_cmp(want, got) == 0,
          "even modulus without a context");
    BN_free(two); BN_free(ten); BN_free(got); BN_free(want); BN_free(m);
}

/* Which path each kind of operand takes, for a batch of 12 values (whole
 * lane groups on avx2 and ifma; on portable and mulx every value goes to
 * the consttime path, path_per_count): an odd modulus of at most 8192 bits
 * with operands within OBLIVEX_MAX_OPERAND_BYTES runs on oblivex (a base
 * above it is reduced by BN_nnmod first); an even modulus goes to
 * BN_mod_exp, as OpenSSL's consttime path refuses it; a longer modulus or
 * exponent goes to BN_mod_exp_mont_consttime. Every result equals
 * BN_mod_exp's. */
static void path_per_operand(BN_CTX *ctx) {
    enum { N = 12 };
    enum path { OBLIVEX, CONSTTIME, PLAIN };
    struct {
        const char *what;
        int modulus_bit, odd, exponent_bit, base_bit;
        enum path path;
    } cases[] = {
        {"1024-bit odd modulus", 1023, 1, 1000, 1000, OBLIVEX},
        {"8192-bit odd modulus", 8191, 1, 64, 8000, OBLIVEX},
        {"a base above the operand limit", 1023, 1, 1000, 8 * (OBLIVEX_MAX_OPERAND_BYTES + 10), OBLIVEX},
        {"even modulus", 1023, 0, 1000, 1000, PLAIN},
        {"8193-bit modulus", 8192, 1, 64, 100, CONSTTIME},
        {"an exponent above the operand limit", 1023, 1, 8 * (OBLIVEX_MAX_OPERAND_BYTES + 10), 100, CONSTTIME},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        BIGNUM *m = random_bn(64, 0), *a[N], *p[N], *r[N];
        BN_set_bit(m, cases[c].modulus_bit);
        if (cases[c].odd) {
            BN_set_bit(m, 0);
        } else {
            BN_clear_bit(m, 0);
        }
        for (size_t i = 0; i < N; i++) {
            a[i] = random_bn(64, 0);
            p[i] = random_bn(8, 0);
            BN_set_bit(a[i], cases[c].base_bit);
            BN_set_bit(p[i], cases[c].exponent_bit);
            r[i] = BN_new();
        }
        handed_consttime = handed_plain = 0;
        CHECK(oblivex_BN_mod_exp_batch(r, (const BIGNUM *const *)a, (const BIGNUM *const *)p, m, N, ctx) == 1,
              "%s", cases[c].what);
        size_t consttime = cases[c].path == CONSTTIME ? N
                           : cases[c].path == OBLIVEX ? obx_detail_values_for_openssl(N)
                                                      : 0;
        size_t plain = cases[c].path == PLAIN ? N : 0;
        CHECK(handed_consttime == consttime && handed_plain == plain,
              "%s: %zu values handed to the consttime path and %zu to BN_mod_exp, expected %zu and %zu",
              cases[c].what, handed_consttime, handed_plain, consttime, plain);
        for (size_t i = 0; i < N; i++) {
            BIGNUM *want = BN_new();
            CHECK(BN_mod_exp(want, a[i], p[i], m, ctx) == 1 && BN_cmp(want, r[i]) == 0, "%s, value %zu",
                  cases[c].what, i);
            BN_free(want); BN_free(a[i]); BN_free(p[i]); BN_free(r[i]);
        }
        BN_free(m);
    }
}

static void edge_cases(BN_CTX *ctx) {
    BIGNUM *r = BN_new(), *a = BN_new(), *p = BN_new(), *m = BN_new(), *want = BN_new();
    /* Zero modulus: OpenSSL fails, so must the shim, leaving r untouched. */
    BN_set_word(r, 42); BN_set_word(a, 3); BN_set_word(p, 5); BN_zero(m);
    CHECK(oblivex_BN_mod_exp(r, a, p, m, ctx) == 0, "zero modulus fails");
    CHECK(BN_is_word(r, 42), "r untouched on failure");
    /* A modulus above 8192 bits goes to OpenSSL's consttime path. */
    BN_set_bit(m, 9000); BN_set_bit(m, 0);
    CHECK(oblivex_BN_mod_exp(r, a, p, m, ctx) == 1 && BN_is_word(r, 243), "9001-bit modulus");
    /* An exponent beyond oblivex's operand limit, and a huge base. */
    BN_set_word(m, 1000003);
    BN_set_bit(p, 8 * (OBLIVEX_MAX_OPERAND_BYTES + 10));
    BN_set_bit(a, 8 * (OBLIVEX_MAX_OPERAND_BYTES + 10));
    CHECK(BN_mod_exp(want, a, p, m, ctx) == 1, "OpenSSL");
    CHECK(oblivex_BN_mod_exp(r, a, p, m, ctx) == 1 && BN_cmp(r, want) == 0, "oversize operands");
    /* NULL BN_CTX is accepted (a temporary one is used). */
    BN_set_word(a, 2); BN_set_word(p, 10);
    CHECK(oblivex_BN_mod_exp(r, a, p, m, NULL) == 1 && BN_is_word(r, 1024), "NULL BN_CTX");
    /* r aliasing m and p. */
    BN_set_word(m, 1000003);
    CHECK(oblivex_BN_mod_exp(m, a, p, m, ctx) == 1 && BN_is_word(m, 1024), "r aliasing m");
    BN_set_word(m, 1000003);
    CHECK(oblivex_BN_mod_exp(p, a, p, m, ctx) == 1 && BN_is_word(p, 1024), "r aliasing p");
    /* An empty batch succeeds and does nothing. */
    CHECK(oblivex_BN_mod_exp_batch(&r, (const BIGNUM *const *)&a, (const BIGNUM *const *)&p, m, 0,
                                   ctx) == 1,
          "empty batch");
    BN_free(r); BN_free(a); BN_free(p); BN_free(m); BN_free(want);
}

int main(void) {
    test_seed("test_openssl_shim");
    BN_CTX *ctx = BN_CTX_new();
    compare_single(ctx, 3000);
    compare_batch(ctx, 200);
    path_per_count(ctx);
    path_per_operand(ctx);
    reused_context(ctx);
    edge_cases(ctx);
    BN_CTX_free(ctx);
    return test_finish("test_openssl_shim");
}
