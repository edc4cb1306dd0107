/* RSA private operations with the CRT against OpenSSL's raw RSA
 * (RSA_NO_PADDING):
 *  - the RSA key API (oblivex_rsa_crt_key_new, oblivex_rsa_private_batch)
 *    on RSA-2048 and RSA-4096 keys, with batches that leave a partial lane
 *    group, and its refusals of bad keys and bad batches;
 *  - the batch with one key per ciphertext (oblivex_rsa_private_batch_keys),
 *    two RSA-2048 keys alternating, and its refusals;
 *  - the per-value-modulus batch as a caller without the key API uses it:
 *    the half exponentiations c^dp mod p and c^dq mod q in one
 *    oblivex_mod_exp_batch_multi call, recombined with Garner's formula in
 *    OpenSSL BN arithmetic. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "test_util.h"

#define MAX_FULL 512 /* bytes of n, up to RSA-4096 */
#define MAX_HALF (MAX_FULL / 2)
#define MAX_CTS 11

struct test_key {
    EVP_PKEY *key;
    size_t full, half; /* bytes of n and of p, q */
    BIGNUM *n, *p, *q, *dp, *dq, *qinv;
    uint8_t p_b[MAX_HALF], q_b[MAX_HALF], dp_b[MAX_HALF], dq_b[MAX_HALF], qinv_b[MAX_HALF], n_b[MAX_FULL];
};

static BIGNUM *param(EVP_PKEY *key, const char *name) {
    BIGNUM *bn = NULL;
    CHECK(EVP_PKEY_get_bn_param(key, name, &bn) == 1, "get %s", name);
    return bn;
}

static void key_new(struct test_key *k, int bits) {
    k->key = EVP_RSA_gen((unsigned)bits);
    CHECK(k->key != NULL, "RSA key generation");
    k->full = (size_t)bits / 8;
    k->half = k->full / 2;
    k->n = param(k->key, OSSL_PKEY_PARAM_RSA_N);
    k->p = param(k->key, OSSL_PKEY_PARAM_RSA_FACTOR1);
    k->q = param(k->key, OSSL_PKEY_PARAM_RSA_FACTOR2);
    k->dp = param(k->key, OSSL_PKEY_PARAM_RSA_EXPONENT1);
    k->dq = param(k->key, OSSL_PKEY_PARAM_RSA_EXPONENT2);
    k->qinv = param(k->key, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
    BN_bn2binpad(k->p, k->p_b, (int)k->half);
    BN_bn2binpad(k->q, k->q_b, (int)k->half);
    BN_bn2binpad(k->dp, k->dp_b, (int)k->half);
    BN_bn2binpad(k->dq, k->dq_b, (int)k->half);
    BN_bn2binpad(k->qinv, k->qinv_b, (int)k->half);
    BN_bn2binpad(k->n, k->n_b, (int)k->full);
}

static void key_free(struct test_key *k) {
    BN_free(k->n); BN_free(k->p); BN_free(k->q);
    BN_clear_free(k->dp); BN_clear_free(k->dq); BN_clear_free(k->qinv);
    EVP_PKEY_free(k->key);
}

static void raw_decrypt(const struct test_key *k, const uint8_t *in, uint8_t *out) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->key, NULL);
    size_t out_len = k->full;
    CHECK(ctx != NULL && EVP_PKEY_decrypt_init(ctx) == 1 &&
              EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1 &&
              EVP_PKEY_decrypt(ctx, out, &out_len, in, k->full) == 1 && out_len == k->full,
          "OpenSSL raw RSA decryption");
    EVP_PKEY_CTX_free(ctx);
}

/* `count` random ciphertexts below n, one after the other. */
static void ciphertexts(const struct test_key *k, int count, uint8_t *out) {
    for (int i = 0; i < count; i++) {
        BIGNUM *c = BN_new();
        CHECK(BN_rand_range(c, k->n) == 1, "random ciphertext");
        BN_bn2binpad(c, out + (size_t)i * k->full, (int)k->full);
        BN_free(c);
    }
}

static oblivex_status make_key(const struct test_key *k, const uint8_t *p, const uint8_t *q, const uint8_t *dp,
                               const uint8_t *dq, const uint8_t *qinv, size_t q_len, oblivex_rsa_crt_key **out) {
    return oblivex_rsa_crt_key_new(p, k->half, q, q_len, dp, k->half, dq, k->half, qinv, k->half, out);
}

/* The key API: every result equal to OpenSSL's. */
static void key_api(const struct test_key *k, int count) {
    oblivex_rsa_crt_key *key = NULL;
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->dq_b, k->qinv_b, k->half, &key), OBLIVEX_OK, "key");
    CHECK(oblivex_rsa_crt_key_modulus_len(key) == k->full, "modulus length");
    static uint8_t cts[MAX_CTS * MAX_FULL], ours[MAX_CTS * MAX_FULL], theirs[MAX_FULL];
    ciphertexts(k, count, cts);
    size_t written = 0;
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, (size_t)count * k->full, (size_t)count, ours, sizeof ours,
                                           &written),
                 OBLIVEX_OK, "private batch");
    CHECK(written == (size_t)count * k->full, "written %zu", written);
    for (int i = 0; i < count; i++) {
        raw_decrypt(k, cts + (size_t)i * k->full, theirs);
        CHECK(memcmp(ours + (size_t)i * k->full, theirs, k->full) == 0, "%zu-byte key, ciphertext %d differs",
              k->full, i);
    }
    oblivex_rsa_crt_key_free(key);
}

/* Bad keys and bad batches: each refused with its own status, nothing
 * written. */
static void key_api_refusals(const struct test_key *k) {
    uint8_t bad[MAX_HALF];
    oblivex_rsa_crt_key *key = NULL;
    memcpy(bad, k->p_b, k->half);
    bad[k->half - 1] ^= 1; /* p − 1: even */
    CHECK_STATUS(make_key(k, bad, k->q_b, k->dp_b, k->dq_b, k->qinv_b, k->half, &key), OBLIVEX_ERR_EVEN_MODULUS,
                 "even p");
    CHECK_STATUS(make_key(k, k->p_b, k->p_b, k->dp_b, k->dp_b, k->qinv_b, k->half, &key), OBLIVEX_ERR_EQUAL_PRIMES,
                 "p = q");
    /* q without its top byte: 8 bits shorter than p. */
    CHECK_STATUS(make_key(k, k->p_b, k->q_b + 1, k->dp_b, k->dq_b, k->qinv_b, k->half - 1, &key),
                 OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE, "primes of different sizes");
    memcpy(bad, k->dp_b, k->half);
    bad[k->half - 1] ^= 1; /* dp is odd: now even */
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, bad, k->dq_b, k->qinv_b, k->half, &key),
                 OBLIVEX_ERR_INVALID_CRT_EXPONENT, "even dp");
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->q_b, k->qinv_b, k->half, &key),
                 OBLIVEX_ERR_INVALID_CRT_EXPONENT, "dq = q");
    memcpy(bad, k->qinv_b, k->half);
    bad[k->half - 1] ^= 1;
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->dq_b, bad, k->half, &key),
                 OBLIVEX_ERR_INVALID_CRT_COEFFICIENT, "wrong qinv");
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->dq_b, k->p_b, k->half, &key),
                 OBLIVEX_ERR_INVALID_CRT_COEFFICIENT, "qinv = p");
    CHECK_STATUS(make_key(k, NULL, k->q_b, k->dp_b, k->dq_b, k->qinv_b, k->half, &key), OBLIVEX_ERR_NULL_POINTER,
                 "NULL p");
    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->dq_b, k->qinv_b, k->half, NULL), OBLIVEX_ERR_NULL_POINTER,
                 "NULL key_out");
    CHECK(key == NULL, "no key made by a refused call");
    CHECK(oblivex_rsa_crt_key_modulus_len(NULL) == 0, "modulus length of NULL");
    oblivex_rsa_crt_key_free(NULL);

    CHECK_STATUS(make_key(k, k->p_b, k->q_b, k->dp_b, k->dq_b, k->qinv_b, k->half, &key), OBLIVEX_OK, "key");
    static uint8_t cts[2 * MAX_FULL], out[2 * MAX_FULL];
    ciphertexts(k, 2, cts);
    size_t two = 2 * k->full, written = 12345;
    memset(out, 0xa5, sizeof out);
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, two, 0, out, sizeof out, &written), OBLIVEX_ERR_EMPTY_INPUT,
                 "count 0");
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, two - 1, 2, out, sizeof out, &written),
                 OBLIVEX_ERR_BAD_LENGTH, "short ciphertexts");
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, two, 2, out, two - 1, &written), OBLIVEX_ERR_BUFFER_TOO_SMALL,
                 "small buffer");
    CHECK_STATUS(oblivex_rsa_private_batch(NULL, cts, two, 2, out, sizeof out, &written), OBLIVEX_ERR_NULL_POINTER,
                 "NULL key");
    memcpy(cts + k->full, k->n_b, k->full); /* c = n */
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, two, 2, out, sizeof out, &written),
                 OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE, "c = n");
    memset(cts + k->full, 0xff, k->full); /* c = 2^(8L) − 1 > n */
    CHECK_STATUS(oblivex_rsa_private_batch(key, cts, two, 2, out, sizeof out, &written),
                 OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE, "c > n");
    CHECK(written == 12345 && out[0] == 0xa5 && out[two - 1] == 0xa5, "nothing written on refusal");
    oblivex_rsa_crt_key_free(key);
}

/* The per-value-modulus batch with Garner's step in OpenSSL BN. */
static void multi_batch(const struct test_key *k, BN_CTX *bn, int count) {
    oblivex_mont_ctx *ctx_p = NULL, *ctx_q = NULL;
    CHECK_STATUS(oblivex_mont_ctx_new(k->p_b, k->half, &ctx_p), OBLIVEX_OK, "ctx p");
    CHECK_STATUS(oblivex_mont_ctx_new(k->q_b, k->half, &ctx_q), OBLIVEX_OK, "ctx q");
    /* Bases are the full c (reduced mod p, q inside). */
    static uint8_t cts[MAX_CTS * MAX_FULL], bases[2 * MAX_CTS * MAX_FULL], exps[2 * MAX_CTS * MAX_HALF];
    static uint8_t halves[2 * MAX_CTS * MAX_HALF];
    const oblivex_mont_ctx *ctxs[2 * MAX_CTS];
    ciphertexts(k, count, cts);
    for (int i = 0; i < count; i++) {
        memcpy(bases + (2 * i) * k->full, cts + i * k->full, k->full);
        memcpy(bases + (2 * i + 1) * k->full, cts + i * k->full, k->full);
        memcpy(exps + (2 * i) * k->half, k->dp_b, k->half);
        memcpy(exps + (2 * i + 1) * k->half, k->dq_b, k->half);
        ctxs[2 * i] = ctx_p;
        ctxs[2 * i + 1] = ctx_q;
    }
    size_t written = 0, values = 2 * (size_t)count;
    CHECK_STATUS(oblivex_mod_exp_batch_multi(ctxs, bases, values * k->full, exps, values * k->half, values, halves,
                                             values * k->half, &written),
                 OBLIVEX_OK, "per-value-modulus batch");
    for (int i = 0; i < count; i++) {
        /* Garner: m = m2 + q·((m1 - m2)·qinv mod p). */
        BIGNUM *m1 = BN_bin2bn(halves + (2 * i) * k->half, (int)k->half, NULL);
        BIGNUM *m2 = BN_bin2bn(halves + (2 * i + 1) * k->half, (int)k->half, NULL);
        BIGNUM *h = BN_new(), *m = BN_new();
        CHECK(BN_mod_sub(h, m1, m2, k->p, bn) && BN_mod_mul(h, h, k->qinv, k->p, bn) && BN_mul(m, h, k->q, bn) &&
                  BN_add(m, m, m2),
              "CRT recombination");
        uint8_t ours[MAX_FULL], theirs[MAX_FULL];
        BN_bn2binpad(m, ours, (int)k->full);
        raw_decrypt(k, cts + i * k->full, theirs);
        CHECK(memcmp(ours, theirs, k->full) == 0, "decryption %d differs from OpenSSL", i);
        BN_free(m1); BN_free(m2); BN_free(h); BN_free(m);
    }
    oblivex_mont_ctx_free(ctx_p);
    oblivex_mont_ctx_free(ctx_q);
}

/* Two keys of one size alternating in one batch of the keyed API, each
 * result equal to OpenSSL's under its own key; then the refusals: a key of
 * another size, a NULL key, a ciphertext at or above its key's n. */
static void keyed_batch(const struct test_key *a, const struct test_key *b, const struct test_key *big) {
    oblivex_rsa_crt_key *ka = NULL, *kb = NULL, *kbig = NULL;
    CHECK_STATUS(make_key(a, a->p_b, a->q_b, a->dp_b, a->dq_b, a->qinv_b, a->half, &ka), OBLIVEX_OK, "key a");
    CHECK_STATUS(make_key(b, b->p_b, b->q_b, b->dp_b, b->dq_b, b->qinv_b, b->half, &kb), OBLIVEX_OK, "key b");
    CHECK_STATUS(make_key(big, big->p_b, big->q_b, big->dp_b, big->dq_b, big->qinv_b, big->half, &kbig), OBLIVEX_OK,
                 "key big");
    enum { COUNT = 9 };
    const struct test_key *owner[COUNT];
    const oblivex_rsa_crt_key *keys[COUNT];
    static uint8_t cts[COUNT * MAX_FULL], ours[COUNT * MAX_FULL], theirs[MAX_FULL];
    size_t width = a->full, written = 0;
    for (int i = 0; i < COUNT; i++) {
        owner[i] = i % 2 == 0 ? a : b;
        keys[i] = i % 2 == 0 ? ka : kb;
        ciphertexts(owner[i], 1, cts + (size_t)i * width);
    }
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width, COUNT, ours, sizeof ours, &written),
                 OBLIVEX_OK, "keyed batch");
    CHECK(written == COUNT * width, "keyed batch: written %zu", written);
    for (int i = 0; i < COUNT; i++) {
        raw_decrypt(owner[i], cts + (size_t)i * width, theirs);
        CHECK(memcmp(ours + (size_t)i * width, theirs, width) == 0, "keyed batch: ciphertext %d differs", i);
    }
    written = 7;
    keys[3] = kbig;
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width, COUNT, ours, sizeof ours, &written),
                 OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE, "keyed batch with a key of another size");
    keys[3] = NULL;
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width, COUNT, ours, sizeof ours, &written),
                 OBLIVEX_ERR_NULL_POINTER, "keyed batch with a NULL key");
    keys[3] = kb;
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width, 0, ours, sizeof ours, &written),
                 OBLIVEX_ERR_EMPTY_INPUT, "keyed batch of nothing");
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width - 1, COUNT, ours, sizeof ours, &written),
                 OBLIVEX_ERR_BAD_LENGTH, "keyed batch one byte short");
    memcpy(cts + 3 * width, b->n_b, width);
    CHECK_STATUS(oblivex_rsa_private_batch_keys(keys, cts, COUNT * width, COUNT, ours, sizeof ours, &written),
                 OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE, "keyed batch with a ciphertext equal to n");
    CHECK(written == 7, "a refused keyed batch wrote %zu", written);
    oblivex_rsa_crt_key_free(ka);
    oblivex_rsa_crt_key_free(kb);
    oblivex_rsa_crt_key_free(kbig);
}

int main(void) {
    test_seed("test_rsa_crt");
    BN_CTX *bn = BN_CTX_new();
    const int bits[] = {2048, 2048, 4096};
    const int counts[] = {MAX_CTS, 4, 3};
    struct test_key k[3];
    for (int i = 0; i < 3; i++) {
        key_new(&k[i], bits[i]);
        key_api(&k[i], counts[i]);
        if (i == 0) {
            key_api_refusals(&k[i]);
            multi_batch(&k[i], bn, 4);
        }
    }
    keyed_batch(&k[0], &k[1], &k[2]);
    for (int i = 0; i < 3; i++) {
        key_free(&k[i]);
    }
    BN_CTX_free(bn);
    printf("test_rsa_crt: RSA-2048 and RSA-4096 private operations equal OpenSSL's\n");
    return test_finish("test_rsa_crt");
}
