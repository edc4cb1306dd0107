/* Intel's crypto_mb (the multi-buffer part of intel/cryptography-primitives),
 * loaded at run time when it is installed, for the benchmarks to measure
 * beside oblivex: nothing is needed to build them, and a machine without it
 * says so. `scripts/install-crypto-mb DIR` installs Intel's release from
 * PyPI; run the benchmarks with DIR/lib on LD_LIBRARY_PATH (or name the
 * library in OBLIVEX_CRYPTO_MB). The declarations follow crypto_mb's
 * public headers (exp.h, rsa.h): numbers are little-endian 64-bit words,
 * RSA messages big-endian byte strings, 8 values per call. */
#ifndef OBLIVEX_BENCH_CRYPTO_MB_H
#define OBLIVEX_BENCH_CRYPTO_MB_H

#include <stdint.h>

typedef uint32_t mbx_status; /* 0: every lane succeeded */

typedef mbx_status (*mbx_exp_fn)(uint64_t *const out[8], const uint64_t *const base[8],
                                 const uint64_t *const exp[8], int exp_bits, const uint64_t *const mod[8],
                                 int mod_bits, uint8_t *buffer, int buffer_len);

typedef mbx_status (*mbx_rsa_private_crt_fn)(const uint8_t *const from[8], uint8_t *const to[8],
                                             const uint64_t *const p[8], const uint64_t *const q[8],
                                             const uint64_t *const dp[8], const uint64_t *const dq[8],
                                             const uint64_t *const iq[8], int rsa_bits, const void *method,
                                             uint8_t *buffer);

struct crypto_mb {
    const char *version; /* NULL if the library does not say */
    int (*exp_buffer_size)(int modulus_bits);
    mbx_exp_fn exp[4]; /* 1024, 2048, 3072, 4096 bits */
    mbx_rsa_private_crt_fn rsa_private_crt;
    const void *(*rsa_crt_method)(int rsa_bits);
    int (*rsa_method_buffer_size)(const void *method);
};

/* Loads crypto_mb; returns 0 and fills `out`, or -1 with the reason in
 * `why` (a static string). */
int crypto_mb_load(struct crypto_mb *out, const char **why);

/* The exponentiation for `bits` (1024, 2048, 3072, 4096), or NULL. */
mbx_exp_fn crypto_mb_exp(const struct crypto_mb *mb, int bits);

#endif
