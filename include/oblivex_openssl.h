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

/* Internal: computes every r[i] with OpenSSL into temporaries, then copies them out,
 * so that a failure leaves r untouched. `consttime` selects
 * BN_mod_exp_mont_consttime (odd moduli) instead of BN_mod_exp. */
static inline int obx_detail_fallback(BIGNUM *const r[], const BIGNUM *const a[],
                                            const BIGNUM *const p[], const BIGNUM *m, size_t n,
                                            BN_CTX *ctx, int consttime) {
    BIGNUM **tmp = (BIGNUM **)calloc(n, sizeof(BIGNUM *));
    int ok = tmp != NULL;
    size_t i;
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
 * AVX-512 IFMA register where the CPU has it), with `mont` the context of m
 * from oblivex_BN_mont_ctx_new (or NULL: made and freed per call).
 * Arguments as BN_mod_exp, element-wise; r[i] may alias any input. Returns
 * 1 on success, 0 on error.
 */
static inline int oblivex_BN_mod_exp_batch_mont(BIGNUM *const r[], const BIGNUM *const a[],
                                                const BIGNUM *const p[], const BIGNUM *m, size_t n,
                                                BN_CTX *ctx, const oblivex_mont_ctx *mont) {
    size_t i, m_len = 0, base_len = 0, exp_len = 0, written = 0;
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
    for (i = 0; i < n; i++) {
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
    if (oblivex_mod_exp_batch(mont, bases, n * base_len, exps, n * exp_len, n, out, n * m_len,
                              &written) != OBLIVEX_OK ||
        written != n * m_len) {
        goto done;
    }
    ok = 1;
    for (i = 0; ok && i < n; i++) {
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
