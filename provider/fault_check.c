/*
 * The check against faults: a private result r is released only if
 * r^e mod n gives its input back. A wrong CRT half gives away a prime
 * (Boneh, DeMillo and Lipton; Lenstra: gcd(r^e - c, n)). The powers of a
 * whole batch are one call of the engine (per-value moduli), constant time
 * in r. e and n are public: square-and-multiply on e (the _vartime call)
 * costs 17 products for e = 65537, not the fixed window's 35 or so.
 */
#include "fault_check.h"

#include <string.h>

#include <openssl/crypto.h>

int obx_fault_check(const obx_rsa_key *const *keys, const unsigned char *inputs,
                    const unsigned char *results, size_t n, size_t width, int *good) {
    size_t e_len = 0;
    for (size_t i = 0; i < n; i++) {
        e_len = keys[i]->e_len > e_len ? keys[i]->e_len : e_len;
        good[i] = 0;
    }
    const oblivex_mont_ctx **ctxs = OPENSSL_malloc(n * sizeof(*ctxs));
    unsigned char *exponents = OPENSSL_zalloc(n * e_len);
    /* A faulty result's power leads to a prime: wiped like a secret. */
    unsigned char *powers = OPENSSL_secure_malloc(n * width);
    size_t written = 0;
    int ran = ctxs != NULL && exponents != NULL && powers != NULL;
    if (ran) {
        for (size_t i = 0; i < n; i++) {
            ctxs[i] = keys[i]->n_ctx;
            /* Right-aligned: the shorter exponents get leading zeros. */
            memcpy(exponents + (i + 1) * e_len - keys[i]->e_len, keys[i]->e, keys[i]->e_len);
        }
        ran = oblivex_mod_exp_batch_multi_vartime(ctxs, results, n * width, exponents, n * e_len, n, powers,
                                                  n * width, &written) == OBLIVEX_OK &&
              written == n * width;
    }
    for (size_t i = 0; ran && i < n; i++) {
        /* Equal to the public input unless there was a fault; compared in
         * constant time, as the power comes from the secret result. The
         * verdict is public: a faulty result's operation fails. */
        good[i] = CRYPTO_memcmp(powers + i * width, inputs + i * width, width) == 0;
        OBX_PUBLIC(good[i]);
    }
    OPENSSL_free(ctxs);
    OPENSSL_free(exponents);
    if (powers != NULL) {
        OPENSSL_secure_clear_free(powers, n * width);
    }
    return ran;
}
