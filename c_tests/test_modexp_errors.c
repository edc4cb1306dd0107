/* Edge cases and every error path of the modexp C API: each bad input gets
 * its own status code, and no output (results, *out_written, *ctx_out) is
 * touched on error. Uses only the public header. */
#include "test_util.h"

#define CANARY 0xa5

static oblivex_mont_ctx *make_ctx(const uint8_t *m, size_t len) {
    oblivex_mont_ctx *ctx = NULL;
    oblivex_status st = oblivex_mont_ctx_new(m, len, &ctx);
    CHECK_STATUS(st, OBLIVEX_OK, "ctx_new");
    return ctx;
}

/* a^e mod m for one small case, through the batch API; returns the result
 * as an integer (moduli here fit in 64 bits). */
static uint64_t exp_small(const oblivex_mont_ctx *ctx, const uint8_t *a, size_t a_len,
                          const uint8_t *e, size_t e_len) {
    uint8_t out[8];
    size_t written = 0, len = oblivex_mont_ctx_modulus_len(ctx);
    CHECK(len <= sizeof out, "small modulus");
    CHECK_STATUS(oblivex_mod_exp_batch(ctx, a, a_len, e, e_len, 1, out, sizeof out, &written), OBLIVEX_OK,
                 "mod_exp_batch");
    CHECK(written == len, "written %zu, want %zu", written, len);
    uint64_t v = 0;
    for (size_t i = 0; i < written; i++) {
        v = (v << 8) | out[i];
    }
    return v;
}

static void test_semantics(void) {
    /* m = 1: everything is 0, including x^0. */
    const uint8_t one[] = {1}, zero[] = {0}, two[] = {2}, seven[] = {7};
    oblivex_mont_ctx *m1 = make_ctx(one, 1);
    CHECK(oblivex_mont_ctx_modulus_len(m1) == 1, "m = 1 is one byte");
    CHECK(exp_small(m1, seven, 1, zero, 1) == 0, "7^0 mod 1 = 0");
    CHECK(exp_small(m1, seven, 1, two, 1) == 0, "7^2 mod 1 = 0");
    oblivex_mont_ctx_free(m1);

    /* m = 3 and m = 65537 with leading zero bytes in the modulus. */
    const uint8_t m3[] = {0, 0, 3};
    oblivex_mont_ctx *c3 = make_ctx(m3, sizeof m3);
    CHECK(oblivex_mont_ctx_modulus_len(c3) == 1, "leading zeros of the modulus are ignored");
    CHECK(exp_small(c3, two, 1, zero, 1) == 1, "2^0 mod 3 = 1");
    CHECK(exp_small(c3, zero, 1, zero, 1) == 1, "0^0 = 1, as BN_mod_exp");
    CHECK(exp_small(c3, zero, 1, seven, 1) == 0, "0^7 = 0");
    CHECK(exp_small(c3, two, 1, seven, 1) == 2, "2^7 mod 3 = 2");
    const uint8_t big_base[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe};
    CHECK(exp_small(c3, big_base, sizeof big_base, one, 1) == 2, "a >= m is reduced (2^80-2 = 2 mod 3)");
    CHECK(exp_small(c3, m3 + 2, 1, seven, 1) == 0, "base = m gives 0");
    oblivex_mont_ctx_free(c3);

    const uint8_t f4[] = {0x01, 0x00, 0x01};
    oblivex_mont_ctx *c = make_ctx(f4, sizeof f4);
    const uint8_t e_short[] = {0x10, 0x01}, e_long[] = {0, 0, 0, 0x10, 0x01};
    const uint8_t three[] = {3};
    CHECK(exp_small(c, three, 1, e_short, 2) == exp_small(c, three, 1, e_long, 5),
          "leading zero bytes of the exponent do not change the result");
    const uint8_t m_minus_1[] = {0x01, 0x00, 0x00};
    CHECK(exp_small(c, m_minus_1, 3, two, 1) == 1, "(-1)^2 = 1");
    CHECK(exp_small(c, m_minus_1, 3, three, 1) == 0x10000, "(-1)^3 = m - 1");
    oblivex_mont_ctx_free(c);

    /* The largest modulus, 8192 bits, is accepted and computes 2^3 = 8. */
    uint8_t m_max[OBLIVEX_MAX_MODULUS_BITS / 8];
    memset(m_max, 0xff, sizeof m_max);
    oblivex_mont_ctx *cmax = make_ctx(m_max, sizeof m_max);
    uint8_t out[OBLIVEX_MAX_MODULUS_BITS / 8];
    size_t written = 0;
    CHECK_STATUS(oblivex_mod_exp_batch(cmax, two, 1, three, 1, 1, out, sizeof out, &written),
                 OBLIVEX_OK, "8192-bit modulus");
    CHECK(written == sizeof out && out[sizeof out - 1] == 8 && test_all_bytes(out, sizeof out - 1, 0),
          "2^3 mod (2^8192 - 1) = 8, left-padded");
    oblivex_mont_ctx_free(cmax);
}

static void test_ctx_errors(void) {
    const uint8_t even[] = {0x01, 0x00}, zeros[] = {0, 0, 0}, odd[] = {0x01, 0x01};
    oblivex_mont_ctx *sentinel = (oblivex_mont_ctx *)&test_failures; /* never dereferenced */
    oblivex_mont_ctx *ctx = sentinel;
    CHECK_STATUS(oblivex_mont_ctx_new(NULL, 2, &ctx), OBLIVEX_ERR_NULL_POINTER, "NULL modulus");
    CHECK_STATUS(oblivex_mont_ctx_new(odd, 2, NULL), OBLIVEX_ERR_NULL_POINTER, "NULL ctx_out");
    CHECK_STATUS(oblivex_mont_ctx_new(even, 2, &ctx), OBLIVEX_ERR_EVEN_MODULUS, "even modulus");
    CHECK_STATUS(oblivex_mont_ctx_new(zeros, 3, &ctx), OBLIVEX_ERR_ZERO_MODULUS, "zero modulus");
    CHECK_STATUS(oblivex_mont_ctx_new(odd, 0, &ctx), OBLIVEX_ERR_ZERO_MODULUS, "no modulus bytes");
    uint8_t too_big[OBLIVEX_MAX_MODULUS_BITS / 8 + 1];
    memset(too_big, 0xff, sizeof too_big);
    too_big[0] = 1;
    CHECK_STATUS(oblivex_mont_ctx_new(too_big, sizeof too_big, &ctx), OBLIVEX_ERR_MODULUS_TOO_LARGE,
                 "8193-bit modulus");
    too_big[0] = 0; /* 8192 bits with a leading zero byte: fine */
    CHECK_STATUS(oblivex_mont_ctx_new(too_big, sizeof too_big, &ctx), OBLIVEX_OK, "leading zero byte");
    CHECK(ctx != sentinel && oblivex_mont_ctx_modulus_len(ctx) == OBLIVEX_MAX_MODULUS_BITS / 8, "len");
    oblivex_mont_ctx_free(ctx);
    ctx = sentinel;
    CHECK_STATUS(oblivex_mont_ctx_new(even, 2, &ctx), OBLIVEX_ERR_EVEN_MODULUS, "even modulus");
    CHECK(ctx == sentinel, "ctx_out untouched on error");
    oblivex_mont_ctx_free(NULL); /* accepted */
    CHECK(oblivex_mont_ctx_modulus_len(NULL) == 0, "modulus_len(NULL) = 0");
}

/* Calls oblivex_mod_exp_batch (`bases_len` and `exps_len` are the total
 * lengths of `count` operands each) and checks the status and that nothing
 * was written on error. */
static void expect_batch(const oblivex_mont_ctx *ctx, const uint8_t *bases, size_t bases_len,
                         const uint8_t *exps, size_t exps_len, size_t count, size_t capacity,
                         int null_out, int null_written, oblivex_status want, const char *what) {
    uint8_t out[64];
    size_t written = 12345;
    memset(out, CANARY, sizeof out);
    oblivex_status st = oblivex_mod_exp_batch(ctx, bases, bases_len, exps, exps_len, count,
                                              null_out ? NULL : out, capacity,
                                              null_written ? NULL : &written);
    CHECK_STATUS(st, want, what);
    if (want != OBLIVEX_OK) {
        CHECK(test_all_bytes(out, sizeof out, CANARY), "%s: output touched on error", what);
        CHECK(written == 12345, "%s: out_written touched on error", what);
    }
}

static void test_batch_errors(void) {
    const uint8_t m[] = {0xff, 0xf1}; /* 65521 */
    oblivex_mont_ctx *ctx = make_ctx(m, sizeof m);
    const uint8_t b[4] = {1, 2, 3, 4}, e[4] = {5, 6, 7, 8};
    expect_batch(ctx, b, 4, e, 4, 4, 8, 0, 0, OBLIVEX_OK, "valid batch");
    expect_batch(NULL, b, 4, e, 4, 4, 8, 0, 0, OBLIVEX_ERR_NULL_POINTER, "NULL ctx");
    expect_batch(ctx, NULL, 4, e, 4, 4, 8, 0, 0, OBLIVEX_ERR_NULL_POINTER, "NULL bases");
    expect_batch(ctx, b, 4, NULL, 4, 4, 8, 0, 0, OBLIVEX_ERR_NULL_POINTER, "NULL exponents");
    expect_batch(ctx, b, 4, e, 4, 4, 8, 1, 0, OBLIVEX_ERR_NULL_POINTER, "NULL results");
    expect_batch(ctx, b, 4, e, 4, 4, 8, 0, 1, OBLIVEX_ERR_NULL_POINTER, "NULL results_written");
    expect_batch(ctx, b, 4, e, 4, 0, 8, 0, 0, OBLIVEX_ERR_EMPTY_INPUT, "count 0");
    expect_batch(ctx, b, 0, e, 4, 4, 8, 0, 0, OBLIVEX_ERR_EMPTY_INPUT, "bases_len 0");
    expect_batch(ctx, b, 4, e, 0, 4, 8, 0, 0, OBLIVEX_ERR_EMPTY_INPUT, "exponents_len 0");
    expect_batch(ctx, b, 3, e, 4, 4, 8, 0, 0, OBLIVEX_ERR_BAD_LENGTH, "bases not a multiple of count");
    expect_batch(ctx, b, 4, e, 3, 4, 8, 0, 0, OBLIVEX_ERR_BAD_LENGTH, "exponents not a multiple of count");
    expect_batch(ctx, b, 4, e, 4, 4, 7, 0, 0, OBLIVEX_ERR_BUFFER_TOO_SMALL, "capacity one short");
    expect_batch(ctx, b, 4, e, 4, 4, 0, 0, 0, OBLIVEX_ERR_BUFFER_TOO_SMALL, "capacity 0");
    expect_batch(ctx, b, 4, e, 4, SIZE_MAX / 2 + 1, 8, 0, 0, OBLIVEX_ERR_BAD_LENGTH,
                 "more operands than bytes");
    expect_batch(ctx, b, 1, e, SIZE_MAX, 1, 8, 0, 0, OBLIVEX_ERR_BAD_LENGTH, "maximal exponents_len");
    uint8_t *long_operand = test_malloc(OBLIVEX_MAX_OPERAND_BYTES + 1);
    memset(long_operand, 1, OBLIVEX_MAX_OPERAND_BYTES + 1);
    expect_batch(ctx, long_operand, OBLIVEX_MAX_OPERAND_BYTES + 1, e, 1, 1, 8, 0, 0,
                 OBLIVEX_ERR_BAD_LENGTH, "base longer than the limit");
    expect_batch(ctx, b, 1, long_operand, OBLIVEX_MAX_OPERAND_BYTES + 1, 1, 8, 0, 0,
                 OBLIVEX_ERR_BAD_LENGTH, "exponent longer than the limit");
    expect_batch(ctx, long_operand, OBLIVEX_MAX_OPERAND_BYTES, long_operand,
                 OBLIVEX_MAX_OPERAND_BYTES, 1, 8, 0, 0, OBLIVEX_OK, "operands at the limit");
    free(long_operand);

    /* Per-value moduli. */
    /* Per-value moduli: every result as long as the longest modulus. */
    const uint8_t wide[] = {0x01, 0x00, 0x00, 0x01}; /* 2^24 + 1, 4 bytes */
    oblivex_mont_ctx *ctx4 = make_ctx(wide, sizeof wide);
    const oblivex_mont_ctx *ctxs[2] = {ctx, ctx4}, *with_null[2] = {ctx, NULL};
    uint8_t out[8];
    size_t written = 777;
    memset(out, CANARY, sizeof out);
    CHECK_STATUS(oblivex_mod_exp_batch_multi(NULL, b, 2, e, 2, 2, out, 8, &written),
                 OBLIVEX_ERR_NULL_POINTER, "multi: NULL ctxs");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(with_null, b, 2, e, 2, 2, out, 8, &written),
                 OBLIVEX_ERR_NULL_POINTER, "multi: NULL entry");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, b, 2, e, 2, 2, out, 7, &written),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "multi: capacity one short");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, b, 2, e, 2, 0, out, 8, &written),
                 OBLIVEX_ERR_EMPTY_INPUT, "multi: count 0");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, b, 3, e, 2, 2, out, 8, &written),
                 OBLIVEX_ERR_BAD_LENGTH, "multi: bases not a multiple of count");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, b, 2, e, 2, 2, out, 8, NULL),
                 OBLIVEX_ERR_NULL_POINTER, "multi: NULL results_written");
    CHECK(test_all_bytes(out, sizeof out, CANARY) && written == 777, "multi: nothing written on error");
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, b, 2, e, 2, 2, out, 8, &written), OBLIVEX_OK,
                 "multi: valid");
    CHECK(written == 8 && out[0] == 0 && out[1] == 0 && out[4] == 0,
          "multi: results left-padded to the longest modulus");
    oblivex_mont_ctx_free(ctx4);
    oblivex_mont_ctx_free(ctx);
}

static void test_strings(void) {
    const int codes[] = {OBLIVEX_OK,
                         OBLIVEX_ERR_NULL_POINTER,
                         OBLIVEX_ERR_BAD_LENGTH,
                         OBLIVEX_ERR_EMPTY_INPUT,
                         OBLIVEX_ERR_ZERO_MODULUS,
                         OBLIVEX_ERR_EVEN_MODULUS,
                         OBLIVEX_ERR_MODULUS_TOO_LARGE,
                         OBLIVEX_ERR_BUFFER_TOO_SMALL,
                         OBLIVEX_ERR_UNSUPPORTED_BACKEND,
                         OBLIVEX_ERR_INVALID_ELEMENT,
                         OBLIVEX_ERR_INVALID_SCALAR,
                         OBLIVEX_ERR_VERIFICATION_FAILED,
                         OBLIVEX_ERR_RNG_FAILURE,
                         OBLIVEX_ERR_INVALID_INPUT,
                         OBLIVEX_ERR_DERIVE_KEY_PAIR,
                         OBLIVEX_ERR_UNKNOWN_SUITE,
                         OBLIVEX_ERR_BATCH_USED,
                         OBLIVEX_ERR_UNKNOWN_MODE,
                         OBLIVEX_ERR_INVALID_KAPPA,
                         OBLIVEX_ERR_UNKNOWN_CHECK,
                         OBLIVEX_ERR_MISSING_PUBLIC_KEY,
                         OBLIVEX_ERR_INVALID_PARTY_ID,
                         OBLIVEX_ERR_INVALID_THRESHOLD,
                         OBLIVEX_ERR_NOT_ENOUGH_RESPONSES,
                         OBLIVEX_ERR_UNKNOWN_TARGET,
                         OBLIVEX_ERR_SUITE_MISMATCH,
                         OBLIVEX_ERR_MISSING_PROOF,
                         OBLIVEX_ERR_EQUAL_PRIMES,
                         OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE,
                         OBLIVEX_ERR_INVALID_CRT_EXPONENT,
                         OBLIVEX_ERR_INVALID_CRT_COEFFICIENT,
                         OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE,
                         OBLIVEX_ERR_UNSUPPORTED_VERSION,
                         OBLIVEX_ERR_WRONG_MESSAGE_KIND,
                         OBLIVEX_ERR_WRONG_PARAMETERS,
                         OBLIVEX_ERR_WRONG_SESSION,
                         OBLIVEX_ERR_WRONG_SENDER,
                         OBLIVEX_ERR_WRONG_RECIPIENT,
                         OBLIVEX_ERR_UNSORTED_PARTY_IDS,
                         OBLIVEX_ERR_DUPLICATE_MESSAGE,
                         OBLIVEX_ERR_NO_QUALIFIED_PARTY,
                         OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES,
                         OBLIVEX_ERR_DEGENERATE_KEY,
                         OBLIVEX_ERR_SHARE_MISMATCH,
                         OBLIVEX_ERR_WRONG_ROUND,
                         OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH,
                         OBLIVEX_ERR_PANIC};
    size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = oblivex_status_str(-1);
    CHECK(unknown != NULL && strcmp(unknown, oblivex_status_str(12345)) == 0, "unknown code text");
    for (size_t i = 0; i < n; i++) {
        const char *s = oblivex_status_str(codes[i]);
        CHECK(s != NULL && s[0] != '\0' && strcmp(s, unknown) != 0, "code %d has its own text", codes[i]);
        for (size_t j = 0; j < i; j++) {
            CHECK(codes[i] != codes[j] && strcmp(s, oblivex_status_str(codes[j])) != 0,
                  "codes %d and %d are distinct", codes[i], codes[j]);
        }
    }
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", OBLIVEX_VERSION_MAJOR, OBLIVEX_VERSION_MINOR,
             OBLIVEX_VERSION_PATCH);
    CHECK(strcmp(oblivex_version(), expected) == 0, "version %s, header says %s", oblivex_version(),
          expected);
}

int main(void) {
    test_seed("test_modexp_errors");
    test_semantics();
    test_ctx_errors();
    test_batch_errors();
    test_strings();
    return test_finish("test_modexp_errors");
}
