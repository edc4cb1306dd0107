/*
 * oblivex_openssl.h: a header-only drop-in for OpenSSL's BN_mod_exp.
 *
 * Replace
 *     BN_mod_exp(r, a, p, m, ctx)
 * by
 *     oblivex_BN_mod_exp(r, a, p, m, ctx)
 * (same arguments, same 1/0 return), or compute many results under one
 * modulus at once with oblivex_BN_mod_exp_batch. Where the same modulus
 * serves many calls, make its context once with oblivex_BN_mont_ctx_new and
 * pass it to oblivex_BN_mod_exp_mont / oblivex_BN_mod_exp_batch_mont (the
 * role BN_MONT_CTX plays for BN_mod_exp_mont): building it costs about as
 * much as a few multiplications, measurable at 1024 bits. Link with
 * -loblivex and -lcrypto (liboblivex itself does not link OpenSSL; only
 * this header uses it). The obx_detail_* functions are this header's
 * internals, not API.
 *
 * Semantics are BN_mod_exp's: a negative base is reduced into [0, |m|), the
 * signs of p and m are ignored, p = 0 gives 1 (0 when |m| = 1). Odd moduli
 * up to 8192 bits run on oblivex, in constant time like
 * BN_mod_exp_mont_consttime: the byte length of the exponent (the longest
 * one, in a batch) sets the work, never its value; bases are processed at
 * the modulus length or more. Every other call is handed to OpenSSL so that
 * each call that works with OpenSSL works here: even or zero moduli go to
 * BN_mod_exp (which fails for zero, as it does in OpenSSL), and odd moduli
 * or exponents beyond oblivex's limits go to BN_mod_exp_mont_consttime.
 *
 * Values for which oblivex has no path faster than OpenSSL's also go to
 * BN_mod_exp_mont_consttime (obx_detail_values_for_openssl): the short
 * tail of a batch that would leave most of a lane group empty, and every
 * value where a one-value backend runs: the portable one (about 3 times
 * slower than OpenSSL's MULX/ADX assembly) and the MULX/ADX one (0.76 to
 * 0.96 times OpenSSL's speed on AMD Zen 5, level on Intel's Emerald
 * Rapids, docs/PERFORMANCE.md).
 *
 * On failure (0 returned) no r[i] has been changed, except when OpenSSL
 * itself runs out of memory while storing the results.
 */
#ifndef OBLIVEX_OPENSSL_H
#define OBLIVEX_OPENSSL_H

#include <stdint.h>
#include <stdlib.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>

#include "oblivex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Internal: frees a buffer that may hold secrets, wiping it first. */
static inline void obx_detail_free_secret(uint8_t *buf, size_t len) {
    if (buf != NULL) {
        OPENSSL_cleanse(buf, len);
        free(buf);
    }
}

/* Internal: n * len bytes, zeroed, or NULL on overflow or allocation failure. */
static inline uint8_t *obx_detail_alloc(size_t n, size_t len) {
    if (len != 0 && n > SIZE_MAX / len) {
        return NULL;
    }
    return (uint8_t *)calloc(n == 0 ? 1 : n, len == 0 ? 1 : len);
}

/* Internal: a test may define OBX_DETAIL_ON_FALLBACK(n, consttime) before
 * including this header, to see each call that hands values to OpenSSL:
 * how many, and whether to BN_mod_exp_mont_consttime (1) or BN_mod_exp
 * (0). Nothing else should define it. */
#ifndef OBX_DETAIL_ON_FALLBACK
#define OBX_DETAIL_ON_FALLBACK(n, consttime) ((void)0)
#endif

/* Internal: computes every r[i] with OpenSSL into temporaries, then copies them out,
 * so that a failure leaves r untouched. `consttime` selects
 * BN_mod_exp_mont_consttime (odd moduli) instead of BN_mod_exp. */

static inline int obx_detail_fallback(BIGNUM *const r[], const BIGNUM *const a[],
                                            const BIGNUM *const p[], const BIGNUM *m, size_t n,
                                            BN_CTX *ctx, int consttime) {
    BIGNUM **tmp = (BIGNUM **)calloc(n, sizeof(BIGNUM *));
    int ok = tmp != NULL;
    size_t i;
    OBX_DETAIL_ON_FALLBACK(n, consttime);
    for (i = 0; ok && i < n; i++) {
        tmp[i] = BN_new();
        ok = tmp[i] != NULL &&
             (consttime ? BN_mod_exp_mont_consttime(tmp[i], a[i], p[i], m, ctx, NULL)
                        : BN_mod_exp(tmp[i], a[i], p[i], m, ctx));
    }
    for (i = 0; ok && i < n; i++) {
        ok = BN_copy(r[i], tmp[i]) != NULL;
    }
    for (i = 0; tmp != NULL && i < n; i++) {
        BN_clear_free(tmp[i]);
    }
    free(tmp);
    return ok;
}

/* Internal: how many of a batch of n values (the last ones) this header
 * hands to BN_mod_exp_mont_consttime, because oblivex has no faster path
 * for them. A lane group costs about as much whether it is full or not;
 * on the AVX2 backend (4 lanes) a full group computes 4 values in the time
 * OpenSSL takes for 3.3 to 6 (1.1 to 1.5 times its throughput, Zen 3;
 * 4 to 5 on Intel's Emerald Rapids), so a tail of 1 to 3 values is
 * faster on OpenSSL; on the IFMA backend (8
 * lanes, about 3.5 times OpenSSL's throughput, Zen 4) a group costs about
 * 2.3 OpenSSL exponentiations, so tails of 1 or 2 are. On the portable
 * backend (1 lane) every value is. */
static inline size_t obx_detail_values_for_openssl(size_t n) {
    size_t lanes = oblivex_batch_group_size(), tail, longest_tail;
    if (lanes <= 1) {
        return n;
    }
    tail = n % lanes;
    longest_tail = lanes <= 4 ? lanes - 1 : 2;
    return tail <= longest_tail ? tail : 0;
}

/* Internal: m's magnitude as big-endian bytes (NULL on allocation failure). */
static inline uint8_t *obx_detail_modulus_bytes(const BIGNUM *m, size_t *len) {
    uint8_t *bytes;
    *len = (size_t)BN_num_bytes(m);
    bytes = obx_detail_alloc(1, *len);
    if (bytes != NULL) {
        BN_bn2bin(m, bytes);
    }
    return bytes;
}

/*
 * The oblivex context of an odd modulus m of at most OBLIVEX_MAX_MODULUS_BITS
 * bits (its sign is ignored), to reuse across the *_mont calls below; NULL
 * for any other modulus (those calls then go to OpenSSL: pass NULL) or on
 * allocation failure. Release it with oblivex_mont_ctx_free. Like a
 * BN_MONT_CTX it is immutable once made and may serve many threads.
 */
static inline oblivex_mont_ctx *oblivex_BN_mont_ctx_new(const BIGNUM *m) {
    size_t m_len = 0;
    uint8_t *m_bytes;
    oblivex_mont_ctx *mont = NULL;
    if (m == NULL || !BN_is_odd(m) || (size_t)BN_num_bits(m) > OBLIVEX_MAX_MODULUS_BITS) {
        return NULL;
    }
    m_bytes = obx_detail_modulus_bytes(m, &m_len);
    if (m_bytes != NULL && oblivex_mont_ctx_new(m_bytes, m_len, &mont) != OBLIVEX_OK) {
        mont = NULL;
    }
    free(m_bytes);
    return mont;
}

/*
 * r[i] = a[i]^p[i] mod m for i < n, in one oblivex batch (8 values per
 * AVX-512 IFMA register, 4 per AVX2 register), and the values oblivex has
 * no faster path for on OpenSSL (obx_detail_values_for_openssl), with
 * `mont` the context of m
 * from oblivex_BN_mont_ctx_new (or NULL: made and freed per call).
 * Arguments as BN_mod_exp, element-wise; r[i] may alias any input. Returns
 * 1 on success, 0 on error.
 */
static inline int oblivex_BN_mod_exp_batch_mont(BIGNUM *const r[], const BIGNUM *const a[],
                                                const BIGNUM *const p[], const BIGNUM *m, size_t n,
                                                BN_CTX *ctx, const oblivex_mont_ctx *mont) {
    size_t i, m_len = 0, base_len = 0, exp_len = 0, written = 0, on_openssl = 0, on_oblivex = 0;
    uint8_t *bases = NULL, *exps = NULL, *out = NULL;
    oblivex_mont_ctx *own_mont = NULL;
    BN_CTX *own_ctx = NULL;
    BIGNUM *reduced = NULL;
    int ok = 0;

    if (r == NULL || a == NULL || p == NULL || m == NULL) {
        return 0;
    }
    if (n == 0) {
        return 1;
    }
    for (i = 0; i < n; i++) {
        if (r[i] == NULL || a[i] == NULL || p[i] == NULL) {
            return 0;
        }
    }
    if (ctx == NULL) {
        ctx = own_ctx = BN_CTX_new();
        if (ctx == NULL) {
            return 0;
        }
    }
    if (!BN_is_odd(m)) {
        ok = obx_detail_fallback(r, a, p, m, n, ctx, 0);
        goto done;
    }

    m_len = (size_t)BN_num_bytes(m);
    exp_len = 1;
    base_len = m_len;
    for (i = 0; i < n; i++) {
        size_t e = (size_t)BN_num_bytes(p[i]), b = (size_t)BN_num_bytes(a[i]);
        exp_len = e > exp_len ? e : exp_len;
        base_len = b > base_len ? b : base_len;
    }
    if (m_len > OBLIVEX_MAX_MODULUS_BITS / 8 || exp_len > OBLIVEX_MAX_OPERAND_BYTES) {
        ok = obx_detail_fallback(r, a, p, m, n, ctx, 1);
        goto done;
    }
    if (base_len > OBLIVEX_MAX_OPERAND_BYTES) {
        base_len = m_len; /* such bases are reduced by OpenSSL below */
    }
    on_openssl = obx_detail_values_for_openssl(n);
    on_oblivex = n - on_openssl;
    if (on_oblivex == 0) {
        ok = obx_detail_fallback(r, a, p, m, n, ctx, 1);
        goto done;
    }
    if (mont == NULL) {
        mont = own_mont = oblivex_BN_mont_ctx_new(m);
    }
    if (mont == NULL || oblivex_mont_ctx_modulus_len(mont) != m_len) {
        goto done;
    }

    bases = obx_detail_alloc(n, base_len);
    exps = obx_detail_alloc(n, exp_len);
    out = obx_detail_alloc(n, m_len);
    reduced = BN_new();
    if (bases == NULL || exps == NULL || out == NULL || reduced == NULL) {
        goto done;
    }
    for (i = 0; i < on_oblivex; i++) {
        const BIGNUM *base = a[i];
        if (BN_is_negative(base) || (size_t)BN_num_bytes(base) > base_len) {
            if (!BN_nnmod(reduced, base, m, ctx)) {
                goto done;
            }
            base = reduced;
        }
        /* BN_bn2binpad writes the magnitude: the sign of p is ignored. */
        if (BN_bn2binpad(base, bases + i * base_len, (int)base_len) < 0 ||
            BN_bn2binpad(p[i], exps + i * exp_len, (int)exp_len) < 0) {
            goto done;
        }
    }
    if (oblivex_mod_exp_batch(mont, bases, on_oblivex * base_len, exps, on_oblivex * exp_len, on_oblivex, out,
                              on_oblivex * m_len, &written) != OBLIVEX_OK ||
        written != on_oblivex * m_len) {
        goto done;
    }
    /* The tail next, into r only if all of it succeeds; then the rest. */
    if (on_openssl > 0 && !obx_detail_fallback(r + on_oblivex, a + on_oblivex, p + on_oblivex, m, on_openssl, ctx, 1)) {
        goto done;
    }
    ok = 1;
    for (i = 0; ok && i < on_oblivex; i++) {
        ok = BN_bin2bn(out + i * m_len, (int)m_len, r[i]) != NULL;
        if (ok) {
            /* BN_bin2bn keeps the old sign of r[i] when the value is 0. */
            BN_set_negative(r[i], 0);
        }
    }

done:
    oblivex_mont_ctx_free(own_mont);
    BN_clear_free(reduced);
    obx_detail_free_secret(bases, n * base_len);
    obx_detail_free_secret(exps, n * exp_len);
    obx_detail_free_secret(out, n * m_len);
    BN_CTX_free(own_ctx);
    return ok;
}

/*
 * r[i] = a[i]^p[i] mod m for i < n, in one oblivex batch, the context of m
 * made and freed in the call (oblivex_BN_mod_exp_batch_mont reuses one).
 */
static inline int oblivex_BN_mod_exp_batch(BIGNUM *const r[], const BIGNUM *const a[],
                                           const BIGNUM *const p[], const BIGNUM *m, size_t n,
                                           BN_CTX *ctx) {
    return oblivex_BN_mod_exp_batch_mont(r, a, p, m, n, ctx, NULL);
}

/*
 * r = a^p mod m with `mont` the context of m from oblivex_BN_mont_ctx_new
 * (NULL: made per call): the drop-in for BN_mod_exp_mont(r, a, p, m, ctx,
 * in_mont).
 */
static inline int oblivex_BN_mod_exp_mont(BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                                          const BIGNUM *m, BN_CTX *ctx, const oblivex_mont_ctx *mont) {
    BIGNUM *const rs[1] = {r};
    const BIGNUM *const as[1] = {a};
    const BIGNUM *const ps[1] = {p};
    return oblivex_BN_mod_exp_batch_mont(rs, as, ps, m, 1, ctx, mont);
}

/*
 * r = a^p mod m: a drop-in for OpenSSL's BN_mod_exp (same arguments, same
 * 1/0 return), constant time for odd moduli up to 8192 bits.
 */
static inline int oblivex_BN_mod_exp(BIGNUM *r, const BIGNUM *a, const BIGNUM *p,
                                     const BIGNUM *m, BN_CTX *ctx) {
    return oblivex_BN_mod_exp_mont(r, a, p, m, ctx, NULL);
}

#ifdef __cplusplus
}
#endif

#endif /* OBLIVEX_OPENSSL_H */
