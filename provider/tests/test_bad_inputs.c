/*
 * The provider on what it must refuse or pass by:
 * - keys the queue does not take (primes of different sizes, three
 *   primes (which the module's key management refuses, so it is the
 *   default provider's), more than 8,192 bits): signed alone and in
 *   8 ASYNC jobs at once, none batched (where the backend batches, a
 *   2048-bit key's 8 jobs are, as a control), every signature equal to
 *   the default provider's;
 * - bad inputs (a digest of the wrong length, a signature or output
 *   buffer too short, ciphertexts of the wrong length or not below the
 *   modulus, PSS without a digest, a decryption with a public key): each
 *   fails with an error on OpenSSL's queue and its output untouched,
 *   outside a job and inside one (which must not pause on it).
 *
 *     test_provider_bad_inputs KEY_8200_PEM
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "../../c_tests/test_util.h"
#include "harness.h"
#include "sign_jobs.h"

#define UNTOUCHED 0xA5

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov;

/* The default provider's RSA key (`selection`: EVP_PKEY_KEYPAIR or
 * EVP_PKEY_PUBLIC_KEY) of the numbers in `bld`, or NULL. */
static EVP_PKEY *key_from(OSSL_PARAM_BLD *bld, int selection) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *pctx = params != NULL ? EVP_PKEY_CTX_new_from_name(libctx, "RSA", DEFAULT) : NULL;
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) != 1 ||
        EVP_PKEY_fromdata(pctx, &key, selection, params) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    return key;
}

/* A two-prime key of `bits_p` + `bits_q` bits, e = 65537, in the default
 * provider; NULL if it cannot be made. */
static EVP_PKEY *key_of_primes(int bits_p, int bits_q) {
    BN_CTX *bn = BN_CTX_new();
    BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new(), *e = BN_new(), *d = BN_new();
    BIGNUM *p1 = BN_new(), *q1 = BN_new(), *dp = BN_new(), *dq = BN_new(), *qinv = BN_new();
    BIGNUM *phi = BN_new();
    EVP_PKEY *key = NULL;
    int ok = bn != NULL && qinv != NULL && phi != NULL && BN_set_word(e, 65537) &&
             BN_generate_prime_ex(p, bits_p, 0, NULL, NULL, NULL) &&
             BN_generate_prime_ex(q, bits_q, 0, NULL, NULL, NULL) && BN_mul(n, p, q, bn) &&
             BN_sub(p1, p, BN_value_one()) && BN_sub(q1, q, BN_value_one()) &&
             BN_mul(phi, p1, q1, bn) && BN_mod_inverse(d, e, phi, bn) != NULL &&
             BN_mod(dp, d, p1, bn) && BN_mod(dq, d, q1, bn) &&
             BN_mod_inverse(qinv, q, p, bn) != NULL;
    OSSL_PARAM_BLD *bld = ok ? OSSL_PARAM_BLD_new() : NULL;
    ok = bld != NULL && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
         OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qinv);
    key = ok ? key_from(bld, EVP_PKEY_KEYPAIR) : NULL;
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(d);
    BN_clear_free(dp);
    BN_clear_free(dq);
    BN_clear_free(qinv);
    BN_clear_free(p);
    BN_clear_free(q);
    BN_clear_free(p1);
    BN_clear_free(q1);
    BN_clear_free(phi);
    BN_free(n);
    BN_free(e);
    BN_CTX_free(bn);
    return key;
}

/* A 2048-bit key of three primes, made by the default provider. */
static EVP_PKEY *three_prime_key(void) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", DEFAULT);
    if (pctx == NULL || EVP_PKEY_keygen_init(pctx) != 1 ||
        EVP_PKEY_CTX_set_rsa_keygen_bits(pctx, 2048) != 1 ||
        EVP_PKEY_CTX_set_rsa_keygen_primes(pctx, 3) != 1 || EVP_PKEY_keygen(pctx, &key) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(pctx);
    return key;
}

/* The key of a PEM file, through the default provider's decoders. */
static EVP_PKEY *key_from_file(const char *path) {
    FILE *file = fopen(path, "r");
    EVP_PKEY *key = file != NULL ? PEM_read_PrivateKey_ex(file, NULL, NULL, NULL, libctx, DEFAULT)
                                 : NULL;
    if (file != NULL) fclose(file);
    return key;
}

/* Signs through the provider that `propq` fetches, alone and in 8 jobs at
 * once: every signature equals the default provider's, and the queue
 * batched none. */
static void signs_unbatched(EVP_PKEY *key, const char *propq, const char *what) {
    CHECK(key != NULL, "%s: no key", what);
    if (key == NULL) return;
    EVP_PKEY *const keys[2] = {key, key};
    sign_job jobs[8], reference;
    make_jobs(jobs, 8, libctx, keys);
    for (size_t i = 0; i < 8; i++) {
        jobs[i].propq = propq;
    }
    uint64_t batched = count_of(prov, "oblivex-batched-operations");
    CHECK(run_jobs(jobs, 8) == 8, "%s: not all 8 jobs signed", what);
    CHECK(count_of(prov, "oblivex-batched-operations") == batched, "%s: batched", what);
    for (size_t i = 0; i < 8; i++) {
        /* PKCS #1 v1.5 is deterministic: the default provider's own
         * signature of the same digest must be the same bytes. */
        reference = jobs[i];
        reference.propq = DEFAULT;
        int signed_by_default = run_sign_job(&reference);
        CHECK(signed_by_default && job_verifies(&jobs[i]) && jobs[i].siglen == reference.siglen &&
                  memcmp(jobs[i].sig, reference.sig, reference.siglen) == 0,
              "%s: job %zu's signature is not the default provider's", what, i);
    }
    CHECK(run_sign_job(&jobs[0]) == 1 && job_verifies(&jobs[0]), "%s: outside a job", what);
}

/* Whether `buf` still holds UNTOUCHED everywhere. */
static int untouched(const unsigned char *buf, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != UNTOUCHED) return 0;
    }
    return 1;
}

/* An EVP_PKEY_CTX of the module on `key`, set up to sign (PKCS #1 v1.5 or
 * PSS, SHA-256 unless `md` is NULL) or to decrypt under `pad`. */
static EVP_PKEY_CTX *context_for(EVP_PKEY *key, int decrypt, int pad, const EVP_MD *md) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, OBLIVEX);
    int ok = pctx != NULL &&
             (decrypt ? EVP_PKEY_decrypt_init(pctx) : EVP_PKEY_sign_init(pctx)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1 &&
             (md == NULL || EVP_PKEY_CTX_set_signature_md(pctx, md) == 1);
    if (!ok) {
        EVP_PKEY_CTX_free(pctx);
        return NULL;
    }
    return pctx;
}

/* Whether a bad call was refused: it failed, left an error on the queue
 * and did not touch its output (filled with UNTOUCHED before the call). */
static int refused(int ret, const unsigned char *out, size_t outsize) {
    int ok = ret != 1 && ERR_peek_error() != 0 && untouched(out, outsize);
    ERR_clear_error();
    return ok;
}

#define OUT_BUFFER 300

/* Signs (or, with `decrypt`, decrypts) `in` through `pctx` into a buffer
 * that says it holds `outsize` bytes: whether that was refused. */
static int call_refused(EVP_PKEY_CTX *pctx, int decrypt, size_t outsize, const unsigned char *in,
                        size_t inlen) {
    unsigned char out[OUT_BUFFER];
    memset(out, UNTOUCHED, sizeof(out));
    size_t outlen = outsize;
    if (pctx == NULL) {
        return 0; /* the set-up failed: not the refusal under test */
    }
    ERR_clear_error(); /* only the call's own error counts */
    int ret = decrypt ? EVP_PKEY_decrypt(pctx, out, &outlen, in, inlen)
                      : EVP_PKEY_sign(pctx, out, &outlen, in, inlen);
    return refused(ret, out, sizeof(out));
}

typedef struct {
    EVP_PKEY *key;    /* 2048 bits, both halves */
    EVP_PKEY *public; /* its public half only */
    int failures;     /* of the checks below */
} bad_inputs;

/* Counts a check that did not hold (run_bad_inputs may run in a job,
 * where it reports through its argument). */
static void expect(bad_inputs *in, int holds, const char *what) {
    if (!holds) {
        fprintf(stderr, "bad input not refused as it should be: %s\n", what);
        in->failures++;
    }
}

static int run_bad_inputs(void *arg) {
    bad_inputs *in = arg;
    unsigned char digest[32] = {1}, above[256], cipher[256];
    memset(above, 0xff, sizeof(above)); /* above the modulus */
    memset(cipher, 0x01, sizeof(cipher));
    ERR_clear_error();

    EVP_PKEY_CTX *pctx = context_for(in->key, 0, RSA_PKCS1_PADDING, EVP_sha256());
    expect(in, call_refused(pctx, 0, OUT_BUFFER, digest, 31), "a 31-byte SHA-256 digest");
    expect(in, call_refused(pctx, 0, 255, digest, 32),
           "a 255-byte signature buffer for a 256-byte signature");
    EVP_PKEY_CTX_free(pctx);

    pctx = context_for(in->key, 0, RSA_PKCS1_PSS_PADDING, NULL);
    expect(in, call_refused(pctx, 0, OUT_BUFFER, digest, 32), "PSS without a digest");
    EVP_PKEY_CTX_free(pctx);

    pctx = context_for(in->key, 1, RSA_NO_PADDING, NULL);
    expect(in, call_refused(pctx, 1, OUT_BUFFER, above, 256), "a raw ciphertext above the modulus");
    expect(in, call_refused(pctx, 1, OUT_BUFFER, cipher, 255), "a 255-byte ciphertext");
    expect(in, call_refused(pctx, 1, 255, cipher, 256),
           "a 255-byte output for a 256-byte raw decryption");
    EVP_PKEY_CTX_free(pctx);

    pctx = context_for(in->key, 1, RSA_PKCS1_OAEP_PADDING, NULL);
    expect(in, call_refused(pctx, 1, OUT_BUFFER, cipher, 0), "an empty OAEP ciphertext");
    EVP_PKEY_CTX_free(pctx);

    /* A public key cannot decrypt: refused at set-up or at the call. */
    pctx = EVP_PKEY_CTX_new_from_pkey(libctx, in->public, OBLIVEX);
    if (pctx != NULL && EVP_PKEY_decrypt_init(pctx) == 1) {
        expect(in, call_refused(pctx, 1, OUT_BUFFER, cipher, 256), "a decryption with a public key");
    } else {
        expect(in, ERR_peek_error() != 0, "a decryption with a public key: no error");
        ERR_clear_error();
    }
    EVP_PKEY_CTX_free(pctx);
    return in->failures == 0;
}

/* The public half of `key`, in the default provider. */
static EVP_PKEY *public_half(EVP_PKEY *key) {
    BIGNUM *n = NULL, *e = NULL;
    EVP_PKEY *pub = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bld != NULL && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) &&
        EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e)) {
        pub = key_from(bld, EVP_PKEY_PUBLIC_KEY);
    }
    OSSL_PARAM_BLD_free(bld);
    BN_free(n);
    BN_free(e);
    return pub;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s KEY_8200_PEM\n", argv[0]);
        return 2;
    }
    test_seed("test_provider_bad_inputs");
    libctx = context_with("oblivex", &prov);

    /* A draw whose e divides p - 1 or q - 1 has no d: draw again. */
    EVP_PKEY *unequal = NULL;
    for (int tries = 0; unequal == NULL && tries < 8; tries++) {
        unequal = key_of_primes(1000, 1048);
    }
    signs_unbatched(unequal, OBLIVEX, "primes of 1000 and 1048 bits");
    EVP_PKEY_free(unequal);
    /* Three primes: the module's key management refuses the key, so an
     * application that asks for the module by name gets an error, and one
     * that does not (as through openssl.cnf) the default provider's. */
    EVP_PKEY *three = three_prime_key();
    signs_unbatched(three, NULL, "three primes");
    if (three != NULL) {
        sign_job job;
        EVP_PKEY *const keys[2] = {three, three};
        make_jobs(&job, 1, libctx, keys);
        ERR_clear_error();
        CHECK(run_sign_job(&job) == 0 && ERR_peek_error() != 0,
              "three primes through the module by name: not refused with an error");
        ERR_clear_error();
        CHECK(run_jobs(&job, 1) == 0, "three primes in a job through the module: not refused");
        ERR_clear_error();
    }
    EVP_PKEY_free(three);
    EVP_PKEY *large = key_from_file(argv[1]);
    signs_unbatched(large, OBLIVEX, "8,200 bits");
    EVP_PKEY_free(large);

    bad_inputs in = {EVP_PKEY_Q_keygen(libctx, DEFAULT, "RSA", (size_t)2048), NULL, 0};
    CHECK(in.key != NULL, "keygen 2048");
    if (in.key != NULL && engine_batches()) {
        /* The control: a key the queue takes is batched the same way. */
        EVP_PKEY *const keys[2] = {in.key, in.key};
        sign_job jobs[8];
        make_jobs(jobs, 8, libctx, keys);
        uint64_t batched = count_of(prov, "oblivex-batched-operations");
        CHECK(run_jobs(jobs, 8) == 8 && count_of(prov, "oblivex-batched-operations") - batched == 8,
              "the control: a 2048-bit key's 8 jobs were not batched on %s", oblivex_backend_name());
    }
    in.public = in.key != NULL ? public_half(in.key) : NULL;
    CHECK(in.public != NULL, "the key's public half");
    if (in.key != NULL && in.public != NULL) {
        uint64_t batched = count_of(prov, "oblivex-batched-operations");
        uint64_t single = count_of(prov, "oblivex-single-operations");
        CHECK(run_bad_inputs(&in), "outside a job: %d bad inputs not refused", in.failures);
        /* In a job: refused the same way, before the queue (a paused job
         * that is never woken fails run_async_jobs). */
        in.failures = 0;
        void *args[1] = {&in};
        CHECK(run_async_jobs(run_bad_inputs, args, 1, 0, 1) == 1,
              "in a job: %d bad inputs not refused", in.failures);
        /* No private operation ran, alone or queued: each was refused
         * before the exponentiation, so no job paused on one. */
        CHECK(count_of(prov, "oblivex-batched-operations") == batched &&
                  count_of(prov, "oblivex-single-operations") == single,
              "a bad input reached the exponentiation");
    }
    EVP_PKEY_free(in.key);
    EVP_PKEY_free(in.public);
    OSSL_LIB_CTX_free(libctx);
    if (test_failures > 0) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "test_provider_bad_inputs: %d failures\n", test_failures);
        return 1;
    }
    printf("test_provider_bad_inputs: ok on %s\n", oblivex_backend_name());
    return 0;
}
