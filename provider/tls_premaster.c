/*
 * The TLS 1.2 RSA key exchange's decryption (RFC 5246 §7.4.7.1): the
 * PKCS #1 v1.5 block must hold a 48-byte premaster secret starting with
 * the client's version; any other block yields 48 random bytes instead,
 * chosen without a branch, so that the server reveals nothing about the
 * block (Bleichenbacher's attack, and its timing variants).
 */
#include "tls_premaster.h"

#include <openssl/crypto.h>

/* 0xff where a == b, else 0, without a branch. */
static unsigned char eq_mask(unsigned a, unsigned b) {
    unsigned x = a ^ b;
    return (unsigned char)(0u - (((x | (0u - x)) >> (8 * sizeof(unsigned) - 1)) ^ 1u));
}

void obx_tls_premaster(const unsigned char *em, size_t len, unsigned client_version,
                       unsigned alt_version, const unsigned char random[OBX_TLS_PREMASTER_LEN],
                       unsigned char out[OBX_TLS_PREMASTER_LEN]) {
    /* em = 00 02 PS 00 premaster, PS non-zero: the separator is at
     * len - 49, PS spans 2 .. len - 50 (len ≥ 59 for any RSA key of 512
     * bits or more: PS has at least the 8 bytes PKCS #1 asks for). */
    size_t separator = len - OBX_TLS_PREMASTER_LEN - 1;
    unsigned char good = eq_mask(em[0], 0) & eq_mask(em[1], 2) & eq_mask(em[separator], 0);
    for (size_t i = 2; i < separator; i++) {
        good &= (unsigned char)~eq_mask(em[i], 0);
    }
    const unsigned char *premaster = em + separator + 1;
    unsigned version = (unsigned)premaster[0] << 8 | premaster[1];
    unsigned char version_good = eq_mask(version, client_version);
    if (alt_version != 0) { /* public: the configuration's */
        version_good |= eq_mask(version, alt_version);
    }
    good &= version_good;
    for (size_t i = 0; i < OBX_TLS_PREMASTER_LEN; i++) {
        out[i] = (unsigned char)((premaster[i] & good) | (random[i] & (unsigned char)~good));
    }
}
