/*
 * The key object: OpenSSL's RSA with this provider's RSA_METHOD, which is
 * OpenSSL's own (padding, blinding, public operations) but for the CRT
 * exponentiation, which goes to the batch queue (batch.c); and the oblivex
 * CRT key made from the RSA's private parameters.
 */
#include "provider.h"

#include <pthread.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

/* The method every key of this provider has, made once. */
static RSA_METHOD *batched_method;
/* The RSA ex_data slot that points back to the obx_rsa_key. */
static int key_slot = -1;

/* rsa_mod_exp of the method: the batch queue where the key has an oblivex
 * CRT key, else OpenSSL's own. */
static int batched_mod_exp(BIGNUM *r0, const BIGNUM *I, RSA *rsa, BN_CTX *ctx) {
    const obx_rsa_key *key = obx_rsa_key_of(rsa);
    if (key == NULL || key->crt == NULL) {
        return RSA_meth_get_mod_exp(RSA_PKCS1_OpenSSL())(r0, I, rsa, ctx);
    }
    return obx_batch_mod_exp(r0, I, key, ctx);
}

/* Makes the method and the slot, once per process (every library context
 * that loads the module shares them; the module is never unloaded:
 * -z nodelete). */
static void make_method(void) {
    key_slot = RSA_get_ex_new_index(0, NULL, NULL, NULL, NULL);
    RSA_METHOD *method = RSA_meth_dup(RSA_PKCS1_OpenSSL());
    if (key_slot < 0 || method == NULL || !RSA_meth_set1_name(method, "oblivex batched RSA") ||
        !RSA_meth_set_mod_exp(method, batched_mod_exp)) {
        RSA_meth_free(method);
        return;
    }
    batched_method = method;
}

int obx_rsa_key_library_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_method);
    return batched_method != NULL;
}

obx_rsa_key *obx_rsa_key_new(obx_prov *prov) {
    obx_rsa_key *key = OPENSSL_zalloc(sizeof(*key));
    if (key != NULL) {
        key->prov = prov;
    }
    return key;
}

/* Releases what `key` holds, leaving it empty. */
static void release(obx_rsa_key *key) {
    oblivex_rsa_crt_key_free(key->crt);
    key->crt = NULL;
    oblivex_mont_ctx_free(key->n_ctx);
    key->n_ctx = NULL;
    OPENSSL_free(key->e);
    key->e = NULL;
    key->e_len = 0;
    RSA_free(key->rsa); /* wipes the private parameters */
    key->rsa = NULL;
    key->prime_bits = 0;
}

void obx_rsa_key_free(obx_rsa_key *key) {
    if (key != NULL) {
        release(key);
        OPENSSL_free(key);
    }
}

/* `bn` big-endian in `len` bytes at `out`, written without branching on
 * its value (BN_bn2binpad). */
static int to_bytes(const BIGNUM *bn, unsigned char *out, size_t len) {
    return BN_bn2binpad(bn, out, (int)len) == (int)len;
}

/* The oblivex CRT key of a 2-prime private RSA key, or NULL where oblivex
 * does not take it (its status is then OpenSSL's business: the key still
 * works, unbatched). */
static oblivex_rsa_crt_key *crt_key_of(const RSA *rsa) {
    const BIGNUM *p, *q, *dp, *dq, *qinv;
    RSA_get0_factors(rsa, &p, &q);
    RSA_get0_crt_params(rsa, &dp, &dq, &qinv);
    if (p == NULL || q == NULL || dp == NULL || dq == NULL || qinv == NULL ||
        RSA_get_multi_prime_extra_count(rsa) != 0) {
        return NULL;
    }
    /* The primes' sizes are the key's size: public. */
    int p_len = BN_num_bytes(p), q_len = BN_num_bytes(q);
    OBX_PUBLIC(p_len);
    OBX_PUBLIC(q_len);
    size_t len = (size_t)(p_len > q_len ? p_len : q_len);
    if (len == 0 || len > OBLIVEX_MAX_OPERAND_BYTES) {
        return NULL;
    }
    unsigned char *buf = OPENSSL_secure_zalloc(5 * len);
    if (buf == NULL) {
        return NULL;
    }
    oblivex_rsa_crt_key *crt = NULL;
    if (to_bytes(p, buf, len) && to_bytes(q, buf + len, len) && to_bytes(dp, buf + 2 * len, len) &&
        to_bytes(dq, buf + 3 * len, len) && to_bytes(qinv, buf + 4 * len, len) &&
        oblivex_rsa_crt_key_new(buf, len, buf + len, len, buf + 2 * len, len, buf + 3 * len, len,
                                buf + 4 * len, len, &crt) != OBLIVEX_OK) {
        crt = NULL;
    }
    OPENSSL_secure_clear_free(buf, 5 * len);
    return crt;
}

int obx_rsa_key_set(obx_rsa_key *key, RSA *rsa) {
    release(key);
    const BIGNUM *n = RSA_get0_n(rsa);
    if (n == NULL || RSA_get0_e(rsa) == NULL || !RSA_set_method(rsa, batched_method) ||
        !RSA_set_ex_data(rsa, key_slot, key)) {
        RSA_free(rsa);
        return 0;
    }
    key->rsa = rsa;
    if (RSA_get0_d(rsa) == NULL) {
        return 1; /* a public key: nothing to batch */
    }
    key->crt = crt_key_of(rsa);
    if (key->crt == NULL) {
        /* OpenSSL's exponentiation serves it, never pausing, blinded as
         * OpenSSL's own keys are (its path for primes of different sizes
         * relies on blinding). */
        return 1;
    }
    const BIGNUM *p, *q;
    RSA_get0_factors(rsa, &p, &q);
    key->prime_bits = BN_num_bits(p);
    OBX_PUBLIC(key->prime_bits);
    /* n and e are public. */
    size_t n_len = (size_t)BN_num_bytes(n);
    key->e_len = (size_t)BN_num_bytes(RSA_get0_e(rsa));
    unsigned char *n_bytes = OPENSSL_malloc(n_len);
    key->e = OPENSSL_malloc(key->e_len == 0 ? 1 : key->e_len);
    int ok = n_bytes != NULL && key->e != NULL && key->e_len > 0 &&
             BN_bn2bin(n, n_bytes) == (int)n_len &&
             BN_bn2bin(RSA_get0_e(rsa), key->e) == (int)key->e_len &&
             oblivex_mont_ctx_new(n_bytes, n_len, &key->n_ctx) == OBLIVEX_OK;
    OPENSSL_free(n_bytes);
    if (!ok) {
        /* No fault check, no batching: OpenSSL's exponentiation. */
        oblivex_rsa_crt_key_free(key->crt);
        key->crt = NULL;
        return 1;
    }
    /* A batched key is not blinded: OpenSSL's blinding factors are shared
     * state that it updates between an operation's blinding and its
     * unblinding, which jobs of one thread interleave when an operation
     * pauses for its batch (the wrong factor would unblind). Both of its
     * exponentiations are constant time without it: oblivex's, and
     * OpenSSL's BN_FLG_CONSTTIME path for primes of one size (which
     * oblivex's key requires). */
    RSA_blinding_off(rsa);
    RSA_set_flags(rsa, RSA_FLAG_NO_BLINDING);
    return 1;
}

const obx_rsa_key *obx_rsa_key_of(const RSA *rsa) {
    return RSA_get_ex_data(rsa, key_slot);
}
