/*
 * The provider, loaded as OpenSSL loads it (OPENSSL_MODULES points at the
 * build): signatures and decryptions through it agree with the default
 * provider's for 2048, 3072 and 4096-bit keys, alone and in batches of 8
 * ASYNC jobs (so through the engine too); private operations from
 * ASYNC jobs run in batches (keys mixed), a lone one runs at once; a fault
 * planted in a batch's result is caught and nothing of it released.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/async.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "../../c_tests/test_util.h"
#include "harness.h"
#include "sign_jobs.h"

static OSSL_LIB_CTX *libctx;

/* Signs `msg` with SHA-256 under `pad` (PSS: salt of the digest's length)
 * through the provider of `propq`; returns the length, 0 on failure. */
static size_t sign(OSSL_LIB_CTX *ctx, EVP_PKEY *key, const char *propq, int pad,
                   const char *md, const unsigned char *msg, size_t len,
                   unsigned char sig[MAX_SIG]) {
    EVP_MD_CTX *mdctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    size_t siglen = MAX_SIG;
    int ok = mdctx != NULL && EVP_DigestSignInit_ex(mdctx, &pctx, md, ctx, propq, key, NULL) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1 &&
             (pad != RSA_PKCS1_PSS_PADDING ||
              EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1) &&
             EVP_DigestSign(mdctx, sig, &siglen, msg, len) == 1;
    EVP_MD_CTX_free(mdctx);
    return ok ? siglen : 0;
}

static int verify(OSSL_LIB_CTX *ctx, EVP_PKEY *key, const char *propq, int pad, const char *md,
                  const unsigned char *msg, size_t len, const unsigned char *sig,
                  size_t siglen) {
    EVP_MD_CTX *mdctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int ok = mdctx != NULL &&
             EVP_DigestVerifyInit_ex(mdctx, &pctx, md, ctx, propq, key, NULL) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1 &&
             (pad != RSA_PKCS1_PSS_PADDING ||
              EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1) &&
             EVP_DigestVerify(mdctx, sig, siglen, msg, len) == 1;
    EVP_MD_CTX_free(mdctx);
    return ok;
}

/* Encrypts or decrypts `in` under `pad` (OAEP: SHA-256, with a label)
 * through the provider of `propq`; returns the output length or -1. */
static long crypt(EVP_PKEY *key, const char *propq, int decrypt, int pad,
                  const unsigned char *in, size_t inlen, unsigned char *out, size_t outsize) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
    size_t outlen = outsize;
    int ok = pctx != NULL &&
             (decrypt ? EVP_PKEY_decrypt_init(pctx) : EVP_PKEY_encrypt_init(pctx)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1;
    if (ok && pad == RSA_PKCS1_OAEP_PADDING) {
        unsigned char *label = OPENSSL_memdup("oblivex label", 13);
        ok = EVP_PKEY_CTX_set_rsa_oaep_md(pctx, EVP_sha256()) == 1 &&
             EVP_PKEY_CTX_set0_rsa_oaep_label(pctx, label, 13) == 1;
    }
    ok = ok && (decrypt ? EVP_PKEY_decrypt(pctx, out, &outlen, in, inlen)
                        : EVP_PKEY_encrypt(pctx, out, &outlen, in, inlen)) == 1;
    EVP_PKEY_CTX_free(pctx);
    return ok ? (long)outlen : -1;
}

/* The digests signed with: the SHA-1, SHA-2 and SHA-3 families of the
 * default provider. */
static const char *const signature_digests[] = {
    "SHA1",       "SHA224",   "SHA256",   "SHA384",   "SHA512",  "SHA512-224",
    "SHA512-256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512"};
#define SIGNATURE_DIGESTS (sizeof(signature_digests) / sizeof(signature_digests[0]))

static void signatures_agree(EVP_PKEY *key, int bits) {
    static const unsigned char msg[] = "a message signed through the oblivex provider";
    unsigned char a[MAX_SIG], b[MAX_SIG];
    for (size_t d = 0; d < SIGNATURE_DIGESTS; d++) {
        const char *md = signature_digests[d];
        /* PKCS #1 v1.5 is deterministic: the same bytes as the default's. */
        size_t la = sign(libctx, key, OBLIVEX, RSA_PKCS1_PADDING, md, msg, sizeof(msg), a);
        size_t lb = sign(libctx, key, DEFAULT, RSA_PKCS1_PADDING, md, msg, sizeof(msg), b);
        CHECK(la == (size_t)bits / 8 && la == lb && memcmp(a, b, la) == 0,
              "PKCS #1 v1.5 %s, %d bits: oblivex and default differ", md, bits);
        /* PSS is randomized: each verifies the other's. */
        la = sign(libctx, key, OBLIVEX, RSA_PKCS1_PSS_PADDING, md, msg, sizeof(msg), a);
        lb = sign(libctx, key, DEFAULT, RSA_PKCS1_PSS_PADDING, md, msg, sizeof(msg), b);
        CHECK(la > 0 && verify(libctx, key, DEFAULT, RSA_PKCS1_PSS_PADDING, md, msg, sizeof(msg),
                               a, la),
              "PSS %s, %d bits: oblivex's signature fails the default's check", md, bits);
        CHECK(lb > 0 && verify(libctx, key, OBLIVEX, RSA_PKCS1_PSS_PADDING, md, msg, sizeof(msg),
                               b, lb),
              "PSS %s, %d bits: the default's signature fails oblivex's check", md, bits);
        a[10] ^= 1;
        CHECK(!verify(libctx, key, OBLIVEX, RSA_PKCS1_PSS_PADDING, md, msg, sizeof(msg), a, la),
              "PSS %s, %d bits: a corrupted signature verifies", md, bits);
    }
}

/* The DER AlgorithmIdentifier that X.509 signers read ("algorithm-id"):
 * the same bytes as the default provider's, PKCS #1 v1.5 and PSS. */
static size_t algorithm_id(EVP_PKEY *key, const char *propq, int pad, unsigned char *der) {
    EVP_MD_CTX *mdctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    size_t len = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, der, 128),
        OSSL_PARAM_END,
    };
    if (mdctx != NULL && EVP_DigestSignInit_ex(mdctx, &pctx, "SHA384", libctx, propq, key, NULL) == 1 &&
        EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1 &&
        (pad != RSA_PKCS1_PSS_PADDING || EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_MAX) == 1) &&
        EVP_PKEY_CTX_get_params(pctx, params) == 1) {
        len = params[0].return_size;
    }
    EVP_MD_CTX_free(mdctx);
    return len;
}

static void algorithm_ids_agree(EVP_PKEY *key) {
    unsigned char a[128], b[128];
    for (int pad = RSA_PKCS1_PADDING; pad <= RSA_PKCS1_PSS_PADDING; pad += RSA_PKCS1_PSS_PADDING - 1) {
        size_t la = algorithm_id(key, OBLIVEX, pad, a), lb = algorithm_id(key, DEFAULT, pad, b);
        CHECK(la > 0 && la == lb && memcmp(a, b, la) == 0, "algorithm-id for padding %d: %zu and %zu bytes",
              pad, la, lb);
    }
}

static void decryptions_agree(EVP_PKEY *key, int bits) {
    unsigned char plain[MAX_SIG], cipher[MAX_SIG], back[MAX_SIG], expected[MAX_SIG];
    size_t size = (size_t)bits / 8;
    for (size_t i = 0; i < size; i++) {
        plain[i] = (unsigned char)(i * 7 + 1);
    }
    plain[0] = 0; /* below n, for the raw mode */
    const struct {
        int pad;
        size_t len;
        const char *name;
    } modes[] = {
        {RSA_PKCS1_PADDING, 32, "PKCS #1 v1.5"},
        {RSA_PKCS1_OAEP_PADDING, 40, "OAEP"},
        {RSA_NO_PADDING, size, "raw"},
    };
    for (size_t m = 0; m < 3; m++) {
        long c = crypt(key, DEFAULT, 0, modes[m].pad, plain, modes[m].len, cipher, sizeof(cipher));
        long p = crypt(key, OBLIVEX, 1, modes[m].pad, cipher, (size_t)c, back, sizeof(back));
        CHECK(c == (long)size && p == (long)modes[m].len && memcmp(back, plain, modes[m].len) == 0,
              "%s decryption, %d bits: %ld bytes", modes[m].name, bits, p);
        /* A corrupted ciphertext: what the default provider does with it
         * (an error; from OpenSSL 3.2 on, PKCS #1 v1.5's implicit
         * rejection gives a synthetic message instead, the same bytes). */
        cipher[size / 2] ^= 0x40;
        p = crypt(key, OBLIVEX, 1, modes[m].pad, cipher, (size_t)c, back, sizeof(back));
        long d = crypt(key, DEFAULT, 1, modes[m].pad, cipher, (size_t)c, expected, sizeof(expected));
        CHECK(modes[m].pad == RSA_NO_PADDING || (d < 0 ? p < 0 : p == d && memcmp(back, expected, (size_t)d) == 0),
              "%s decryption, %d bits: a corrupted ciphertext gives %ld bytes, the default provider %ld",
              modes[m].name, bits, p, d);
    }
}

/* TLS 1.2's RSA key exchange: the premaster secret, or 48 random bytes
 * where the block or the version is wrong. */
static void tls_premaster(EVP_PKEY *key) {
    unsigned char premaster[48], cipher[MAX_SIG], out[48];
    for (size_t i = 0; i < sizeof(premaster); i++) {
        premaster[i] = (unsigned char)(0x30 + i);
    }
    premaster[0] = 0x03;
    premaster[1] = 0x03;
    long c = crypt(key, DEFAULT, 0, RSA_PKCS1_PADDING, premaster, 48, cipher, sizeof(cipher));
    for (int version = 0x0303; version >= 0x0302; version--) {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, OBLIVEX);
        unsigned int v = (unsigned int)version;
        OSSL_PARAM params[] = {
            OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, &v),
            OSSL_PARAM_END,
        };
        size_t outlen = sizeof(out);
        int ok = pctx != NULL && EVP_PKEY_decrypt_init(pctx) == 1 &&
                 EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_WITH_TLS_PADDING) == 1 &&
                 EVP_PKEY_CTX_set_params(pctx, params) == 1 &&
                 EVP_PKEY_decrypt(pctx, out, &outlen, cipher, (size_t)c) == 1;
        int same = memcmp(out, premaster, 48) == 0;
        CHECK(ok && outlen == 48 && same == (version == 0x0303),
              "TLS premaster with client version %04x: ok %d, equal %d", version, ok, same);
        EVP_PKEY_CTX_free(pctx);
    }
}

/* Two threads of 4 jobs each, one key: the batches may mix the threads'
 * jobs, a job of one woken by the other. */
static void *run_four_jobs(void *arg) {
    sign_job *jobs = arg;
    return (void *)(size_t)run_jobs(jobs, 4);
}

static void batches_across_jobs(OSSL_PROVIDER *prov, EVP_PKEY *const keys[2]) {
    sign_job jobs[16];
    /* 16 jobs, two keys mixed: two full batches. */
    uint64_t batches = count_of(prov, "oblivex-batches");
    uint64_t batched = count_of(prov, "oblivex-batched-operations");
    make_jobs(jobs, 16, libctx, keys);
    CHECK(run_jobs(jobs, 16) == 16, "16 jobs: not all signed");
    for (size_t i = 0; i < 16; i++) {
        CHECK(job_verifies(&jobs[i]), "job %zu's signature does not verify under its key", i);
    }
    if (engine_batches()) {
        CHECK(count_of(prov, "oblivex-batches") - batches == 2 &&
                  count_of(prov, "oblivex-batched-operations") - batched == 16,
              "16 jobs on %s: not two batches of 8", oblivex_backend_name());
    }
    /* One job alone: OpenSSL's exponentiation at once, after one pause. */
    uint64_t single = count_of(prov, "oblivex-single-operations");
    make_jobs(jobs, 1, libctx, keys);
    CHECK(run_jobs(jobs, 1) == 1 && job_verifies(&jobs[0]), "a lone job fails");
    CHECK(count_of(prov, "oblivex-single-operations") - single == 1, "a lone job was batched");
    /* Outside a job: at once. */
    single = count_of(prov, "oblivex-single-operations");
    CHECK(run_sign_job(&jobs[0]) && job_verifies(&jobs[0]), "no job: fails");
    CHECK(count_of(prov, "oblivex-single-operations") - single == 1, "no job: not at once");
}

/* The wait contexts' variants: callbacks instead of fds; a job dropped
 * while its request is queued; two threads feeding one queue. Every
 * signature that is made verifies. */
static void wait_variants(EVP_PKEY *const keys[2]) {
    sign_job jobs[16];
    make_jobs(jobs, 8, libctx, keys);
    CHECK(run_jobs_with(jobs, 8, 1, 8) == 8, "callback mode: not all 8 jobs signed");
    for (size_t i = 0; i < 8; i++) {
        CHECK(job_verifies(&jobs[i]), "callback mode: job %zu's signature does not verify", i);
    }
    make_jobs(jobs, 5, libctx, keys);
    CHECK(run_jobs_with(jobs, 5, 0, 1) == 4, "a dropped job: the other 4 did not all sign");
    for (size_t i = 0; i < 5; i++) {
        CHECK(i == 1 || job_verifies(&jobs[i]), "a dropped job: job %zu's signature does not verify", i);
    }
    EVP_PKEY *one_key[2] = {keys[0], keys[0]};
    make_jobs(jobs, 8, libctx, one_key);
    pthread_t threads[2];
    void *signed_count[2] = {0};
    for (int t = 0; t < 2; t++) {
        CHECK(pthread_create(&threads[t], NULL, run_four_jobs, &jobs[4 * t]) == 0, "thread %d", t);
    }
    for (int t = 0; t < 2; t++) {
        pthread_join(threads[t], &signed_count[t]);
        CHECK((size_t)signed_count[t] == 4, "thread %d: %zu of 4 jobs signed", t, (size_t)signed_count[t]);
    }
    for (size_t i = 0; i < 8; i++) {
        CHECK(job_verifies(&jobs[i]), "two threads: job %zu's signature does not verify", i);
    }
}

/* A key of the provider matches its public half both ways (so a server
 * can check its certificate against its key), and not another key. */
static void keys_match(EVP_PKEY *const keys[2]) {
    unsigned char der[1024], *end = der;
    int len = i2d_PUBKEY(keys[0], &end);
    const unsigned char *start = der;
    EVP_PKEY *pub = len > 0 ? d2i_PUBKEY_ex(NULL, &start, len, libctx, DEFAULT) : NULL;
    CHECK(pub != NULL, "public key");
    CHECK(EVP_PKEY_eq(keys[0], pub) == 1 && EVP_PKEY_eq(pub, keys[0]) == 1,
          "a key does not match its public key");
    CHECK(EVP_PKEY_eq(keys[1], pub) != 1 && EVP_PKEY_eq(pub, keys[1]) != 1,
          "a key matches another's public key");
    ERR_clear_error();
    EVP_PKEY_free(pub);
}

/* The module built with a fault in every batch's last result: that job
 * fails, the others' signatures verify. */
static void planted_fault_is_caught(EVP_PKEY *const keys[2]) {
    if (!engine_batches()) {
        printf("planted fault: not applicable, the %s backend never batches\n", oblivex_backend_name());
        return;
    }
    OSSL_PROVIDER *prov;
    OSSL_LIB_CTX *ctx = context_with("oblivex-planted-fault", &prov);
    sign_job jobs[8];
    make_jobs(jobs, 8, ctx, keys);
    CHECK(run_jobs(jobs, 8) == 7, "planted fault: not exactly one job refused");
    CHECK(count_of(prov, "oblivex-faults") == 1, "planted fault: not counted");
    size_t verified = 0;
    for (size_t i = 0; i < 8; i++) {
        verified += jobs[i].siglen > 0 && jobs[i].siglen <= MAX_SIG && job_verifies(&jobs[i]);
    }
    CHECK(verified == 7, "planted fault: %zu signatures verify", verified);
    ERR_clear_error();
    OSSL_LIB_CTX_free(ctx);
}

/* The agreement checks of one key: signatures, decryptions and, for one
 * size, the TLS premaster. */
typedef struct {
    EVP_PKEY *key;
    int bits;
} agreement;

static int agreements_hold(void *arg) {
    const agreement *a = arg;
    int failures = test_failures;
    signatures_agree(a->key, a->bits);
    decryptions_agree(a->key, a->bits);
    if (a->bits == 2048) {
        tls_premaster(a->key);
    }
    return test_failures == failures;
}

/* The agreement checks outside any job (each operation at once, on
 * OpenSSL's exponentiation), then in 8 ASYNC jobs at once: each private
 * operation of the sequence then waits for the other 7 jobs' and runs in
 * a batch of 8 on the IFMA and AVX2 engines, fault check included, so
 * that every comparison with the default provider covers the engine too. */
static void agreements_hold_alone_and_batched(OSSL_PROVIDER *prov, EVP_PKEY *key, int bits) {
    agreement a = {key, bits};
    agreements_hold(&a);
    void *args[8];
    for (size_t i = 0; i < 8; i++) {
        args[i] = &a;
    }
    uint64_t batched = count_of(prov, "oblivex-batched-operations");
    CHECK(run_async_jobs(agreements_hold, args, 8, 0, 8) == 8, "%d bits: a check failed in a job", bits);
    /* Per job: 2 signatures per digest (PKCS #1 v1.5 and PSS), 6
     * decryptions (3 modes, intact and corrupted), 2 TLS premasters. */
    uint64_t per_job = 2 * SIGNATURE_DIGESTS + 6 + (bits == 2048 ? 2 : 0);
    CHECK(!engine_batches() || count_of(prov, "oblivex-batched-operations") - batched == 8 * per_job,
          "%d bits: not every private operation of the jobs was batched", bits);
}

int main(void) {
    test_seed("test_provider");
    OSSL_PROVIDER *prov;
    libctx = context_with("oblivex", &prov);
    static const int sizes[] = {2048, 3072, 4096};
    for (size_t s = 0; s < 3; s++) {
        EVP_PKEY *key = EVP_PKEY_Q_keygen(libctx, DEFAULT, "RSA", (size_t)sizes[s]);
        CHECK(key != NULL, "keygen %d", sizes[s]);
        agreements_hold_alone_and_batched(prov, key, sizes[s]);
        algorithm_ids_agree(key);
        EVP_PKEY_free(key);
    }
    /* Generation through the provider's key management. */
    EVP_PKEY *keys[2] = {EVP_PKEY_Q_keygen(libctx, OBLIVEX, "RSA", (size_t)2048),
                         EVP_PKEY_Q_keygen(libctx, DEFAULT, "RSA", (size_t)2048)};
    CHECK(keys[0] != NULL && keys[1] != NULL, "keygen through oblivex");
    batches_across_jobs(prov, keys);
    wait_variants(keys);
    keys_match(keys);
    planted_fault_is_caught(keys);
    EVP_PKEY_free(keys[0]);
    EVP_PKEY_free(keys[1]);
    OSSL_LIB_CTX_free(libctx);
    if (test_failures > 0) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "test_provider: %d failures\n", test_failures);
        return 1;
    }
    printf("test_provider: ok on %s\n", oblivex_backend_name());
    return 0;
}
