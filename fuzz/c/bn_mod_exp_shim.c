/* The bn_mod_exp fuzz target's C half: one case run through OpenSSL's
 * BN_mod_exp and through the oblivex_openssl.h shim in the form the case
 * names, the two compared. The Rust half (fuzz_targets/bn_mod_exp.rs)
 * chooses the operands. */
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>

#include "oblivex_openssl.h"

/* The values a case can give the base, besides arbitrary bytes. */
enum base_kind { BASE_BYTES, BASE_ZERO, BASE_ONE, BASE_M_MINUS_ONE, BASE_M, BASE_M_PLUS_ONE };

/* How the shim is called. */
enum form { FORM_SINGLE, FORM_ALIAS_BASE, FORM_ALIAS_EXPONENT, FORM_MONT_CTX, FORM_BATCH };

/* How a case ended (returned to the Rust half, which names it). */
enum outcome {
    AGREE = 0,
    RETURN_DIFFERS = 1,
    RESULT_DIFFERS = 2,
    CONTEXT_DIFFERS = 3,
    OUT_OF_MEMORY = 4,
};

#define BATCH 5

static BIGNUM *from_bytes(const uint8_t *bytes, size_t len, int negative) {
    BIGNUM *x = BN_bin2bn(bytes, (int)len, NULL);
    if (x != NULL && negative) {
        BN_set_negative(x, 1);
    }
    return x;
}

/* The base of `kind` (arbitrary bytes, or a value next to |m|). */
static BIGNUM *base_of(int kind, const uint8_t *bytes, size_t len, int negative, const BIGNUM *m) {
    BIGNUM *a = BN_new();
    int ok = a != NULL;
    switch (kind) {
    case BASE_ZERO: BN_zero(a); break;
    case BASE_ONE: ok = ok && BN_one(a); break;
    case BASE_M_MINUS_ONE: ok = ok && BN_copy(a, m) && BN_sub_word(a, 1); break;
    case BASE_M: ok = ok && BN_copy(a, m); break;
    case BASE_M_PLUS_ONE: ok = ok && BN_copy(a, m) && BN_add_word(a, 1); break;
    default: ok = ok && BN_bin2bn(bytes, (int)len, a) != NULL; break;
    }
    if (ok) {
        BN_set_negative(a, negative);
    }
    if (!ok) {
        BN_free(a);
        return NULL;
    }
    return a;
}

int fuzz_compare_bn_mod_exp(const uint8_t *m_bytes, size_t m_len, int m_negative, int base_kind,
                            const uint8_t *a_bytes, size_t a_len, int a_negative,
                            const uint8_t *p_bytes, size_t p_len, int p_negative, int form) {
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *m = from_bytes(m_bytes, m_len, m_negative);
    BIGNUM *p = from_bytes(p_bytes, p_len, p_negative);
    BIGNUM *a[BATCH] = {0}, *want[BATCH] = {0}, *got[BATCH] = {0};
    oblivex_mont_ctx *mont = NULL;
    int outcome = OUT_OF_MEMORY, ok_want = 1, ok_got = 0;
    size_t n = form == FORM_BATCH ? BATCH : 1, i;
    if (ctx == NULL || m == NULL || p == NULL) {
        goto done;
    }
    for (i = 0; i < n; i++) {
        /* The batch's bases: the case's, then its successors. */
        a[i] = base_of(base_kind, a_bytes, a_len, a_negative, m);
        want[i] = BN_new();
        got[i] = BN_new();
        if (a[i] == NULL || want[i] == NULL || got[i] == NULL || !BN_add_word(a[i], i)) {
            goto done;
        }
        ok_want = ok_want && BN_mod_exp(want[i], a[i], p, m, ctx);
    }
    switch (form) {
    case FORM_ALIAS_BASE:
        ok_got = BN_copy(got[0], a[0]) != NULL && oblivex_BN_mod_exp(got[0], got[0], p, m, ctx);
        break;
    case FORM_ALIAS_EXPONENT:
        ok_got = BN_copy(got[0], p) != NULL && oblivex_BN_mod_exp(got[0], a[0], got[0], m, ctx);
        break;
    case FORM_MONT_CTX:
        mont = oblivex_BN_mont_ctx_new(m);
        /* A context exactly for the odd moduli within oblivex's limit. */
        if ((mont != NULL) !=
            (BN_is_odd(m) && (size_t)BN_num_bits(m) <= OBLIVEX_MAX_MODULUS_BITS)) {
            outcome = CONTEXT_DIFFERS;
            goto done;
        }
        ok_got = oblivex_BN_mod_exp_mont(got[0], a[0], p, m, ctx, mont);
        break;
    case FORM_BATCH: {
        const BIGNUM *const *bases = (const BIGNUM *const *)a;
        const BIGNUM *exponents[BATCH];
        for (i = 0; i < n; i++) {
            exponents[i] = p;
        }
        ok_got = oblivex_BN_mod_exp_batch(got, bases, exponents, m, n, ctx);
        break;
    }
    default:
        ok_got = oblivex_BN_mod_exp(got[0], a[0], p, m, ctx);
        break;
    }
    outcome = AGREE;
    if (ok_want != ok_got) {
        outcome = RETURN_DIFFERS;
    }
    for (i = 0; outcome == AGREE && ok_want && i < n; i++) {
        if (BN_cmp(want[i], got[i]) != 0) {
            outcome = RESULT_DIFFERS;
        }
    }
done:
    oblivex_mont_ctx_free(mont);
    for (i = 0; i < BATCH; i++) {
        BN_free(a[i]);
        BN_free(want[i]);
        BN_free(got[i]);
    }
    BN_free(m);
    BN_free(p);
    BN_CTX_free(ctx);
    return outcome;
}
