/*
 * The provider's private-key path checked for constant time the "ctgrind"
 * way, as c_tests/ct/ct_secrets.c checks the library: run under valgrind
 * memcheck with the key's secrets (d, p, q, dp, dq, qinv) marked undefined
 * from the moment they exist, memcheck reports any branch or memory index
 * that depends on them.
 *
 * The key is made from the marked bytes (EVP_PKEY_fromdata, default
 * provider), then used through the oblivex provider: PKCS #1 v1.5 and PSS
 * signatures, PKCS #1 v1.5, OAEP, raw and TLS-premaster decryptions, each
 * 8 times in ASYNC jobs (batched on the AVX2 engine with the fault check)
 * and once outside a job. Results are declassified before they are
 * compared.
 *
 * What is checked is the provider's code and oblivex's. OpenSSL's own code
 * (libcrypto: BIGNUM conversions, padding, its exponentiation on the
 * portable backend, where nothing batches) is outside it: the suppression
 * file ct_provider.supp silences reports whose innermost frame is in
 * libcrypto, and only those.
 *
 * Run by ctest as ct_valgrind_provider_{portable,avx2} (label ct).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "../../c_tests/ct/rsa_test_key.h"
#include "../../c_tests/test_util.h"
#include "harness.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define JOBS 8
#define SIZE 256 /* bytes of the test key's n */

static OSSL_LIB_CTX *libctx;

/* The test key, its secret parts marked undefined before OpenSSL reads
 * them. */
static EVP_PKEY *secret_key(void) {
    static uint8_t d[sizeof rsa_d], p[sizeof rsa_p], q[sizeof rsa_q], dp[sizeof rsa_dp],
        dq[sizeof rsa_dq], qinv[sizeof rsa_qinv];
    memcpy(d, rsa_d, sizeof d);
    memcpy(p, rsa_p, sizeof p);
    memcpy(q, rsa_q, sizeof q);
    memcpy(dp, rsa_dp, sizeof dp);
    memcpy(dq, rsa_dq, sizeof dq);
    memcpy(qinv, rsa_qinv, sizeof qinv);
    SECRET(d, sizeof d);
    SECRET(p, sizeof p);
    SECRET(q, sizeof q);
    SECRET(dp, sizeof dp);
    SECRET(dq, sizeof dq);
    SECRET(qinv, sizeof qinv);
    BIGNUM *n = BN_bin2bn(rsa_n, sizeof rsa_n, NULL), *e = BN_new();
    BIGNUM *parts[6] = {BN_bin2bn(d, sizeof d, NULL),   BN_bin2bn(p, sizeof p, NULL),
                        BN_bin2bn(q, sizeof q, NULL),   BN_bin2bn(dp, sizeof dp, NULL),
                        BN_bin2bn(dq, sizeof dq, NULL), BN_bin2bn(qinv, sizeof qinv, NULL)};
    static const char *const names[6] = {OSSL_PKEY_PARAM_RSA_D,         OSSL_PKEY_PARAM_RSA_FACTOR1,
                                         OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
                                         OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1};
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    int ok = bld != NULL && n != NULL && e != NULL && BN_set_word(e, 65537) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
             OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
    for (size_t i = 0; i < 6; i++) {
        ok = ok && parts[i] != NULL && OSSL_PARAM_BLD_push_BN(bld, names[i], parts[i]);
    }
    OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(bld) : NULL;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(libctx, "RSA", DEFAULT);
    EVP_PKEY *key = NULL;
    ok = params != NULL && pctx != NULL && EVP_PKEY_fromdata_init(pctx) == 1 &&
         EVP_PKEY_fromdata(pctx, &key, EVP_PKEY_KEYPAIR, params) == 1;
    CHECK(ok, "the test key");
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_free(n);
    BN_free(e);
    for (size_t i = 0; i < 6; i++) {
        BN_clear_free(parts[i]);
    }
    return key;
}

/* One private operation through the provider. */
typedef struct {
    EVP_PKEY *key;
    int pad;           /* RSA_*_PADDING */
    int sign;          /* a signature (of `in`, a SHA-256 digest) or a decryption */
    unsigned char in[SIZE];
    size_t in_len;
    unsigned char out[SIZE];
    size_t out_len;
} private_op;

static int run_private_op(void *arg) {
    private_op *op = arg;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, op->key, OBLIVEX);
    op->out_len = SIZE;
    int ok = pctx != NULL && (op->sign ? EVP_PKEY_sign_init(pctx) : EVP_PKEY_decrypt_init(pctx)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, op->pad) == 1;
    if (ok && op->sign) {
        ok = EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha256()) == 1 &&
             (op->pad != RSA_PKCS1_PSS_PADDING || EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 32) == 1) &&
             EVP_PKEY_sign(pctx, op->out, &op->out_len, op->in, op->in_len) == 1;
    } else if (ok) {
        if (op->pad == RSA_PKCS1_OAEP_PADDING) {
            ok = EVP_PKEY_CTX_set_rsa_oaep_md(pctx, EVP_sha256()) == 1;
        }
        if (op->pad == RSA_PKCS1_WITH_TLS_PADDING) {
            OSSL_PARAM version[] = {OSSL_PARAM_construct_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION,
                                                              &(unsigned){0x0303}),
                                    OSSL_PARAM_END};
            ok = EVP_PKEY_CTX_set_params(pctx, version) == 1;
        }
        ok = ok && EVP_PKEY_decrypt(pctx, op->out, &op->out_len, op->in, op->in_len) == 1;
    }
    EVP_PKEY_CTX_free(pctx);
    PUBLIC(op->out, sizeof op->out); /* the results are published */
    PUBLIC(&op->out_len, sizeof op->out_len);
    return ok;
}

/* `in` encrypted under the key's public half with `pad` (the encryption
 * padding of a decryption case). */
static size_t encrypt(EVP_PKEY *key, int pad, const unsigned char *in, size_t len, unsigned char *out) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, DEFAULT);
    size_t out_len = SIZE;
    int ok = pctx != NULL && EVP_PKEY_encrypt_init(pctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, pad) == 1 &&
             (pad != RSA_PKCS1_OAEP_PADDING || EVP_PKEY_CTX_set_rsa_oaep_md(pctx, EVP_sha256()) == 1) &&
             EVP_PKEY_encrypt(pctx, out, &out_len, in, len) == 1;
    EVP_PKEY_CTX_free(pctx);
    return ok ? out_len : 0;
}

/* The operation `pad`/`sign` on 8 inputs in ASYNC jobs, then once outside
 * a job; every one must succeed (`expect_ok`) or fail. */
static void run_case(EVP_PKEY *key, int pad, int sign, const char *name) {
    static private_op ops[JOBS + 1];
    void *args[JOBS];
    for (size_t i = 0; i <= JOBS; i++) {
        private_op *op = &ops[i];
        memset(op, 0, sizeof(*op));
        op->key = key;
        op->pad = pad;
        op->sign = sign;
        unsigned char message[48] = {0x03, 0x03}; /* a TLS 1.2 premaster's version */
        for (size_t b = 2; b < sizeof message; b++) {
            message[b] = (unsigned char)(i * 37 + b);
        }
        if (sign) {
            memcpy(op->in, message, 32); /* a SHA-256 digest */
            op->in_len = 32;
        } else if (pad == RSA_NO_PADDING) {
            memcpy(op->in, rsa_n, SIZE);
            op->in[0] = (unsigned char)(rsa_n[0] - 1 - i); /* below n */
            op->in_len = SIZE;
        } else {
            int enc_pad = pad == RSA_PKCS1_WITH_TLS_PADDING ? RSA_PKCS1_PADDING : pad;
            op->in_len = encrypt(key, enc_pad, message, sizeof message, op->in);
            CHECK(op->in_len == SIZE, "%s: encryption %zu", name, i);
        }
        if (i < JOBS) {
            args[i] = op;
        }
    }
    size_t succeeded = run_async_jobs(run_private_op, args, JOBS, 0, JOBS);
    CHECK(succeeded == JOBS, "%s: %zu of %d jobs succeeded", name, succeeded, JOBS);
    CHECK(run_private_op(&ops[JOBS]) == 1, "%s: outside a job", name);
}

int main(void) {
    const char *backend = oblivex_backend_name();
    if (strcmp(backend, "unsupported") == 0) {
        printf("ct_provider: skipped, this CPU cannot run the %s backend\n", getenv("OBLIVEX_BACKEND"));
        return 77;
    }
    if (strcmp(backend, "portable") != 0 && strcmp(backend, "avx2") != 0) {
        fprintf(stderr, "ct_provider: needs OBLIVEX_BACKEND=portable or avx2 (valgrind runs no AVX-512)\n");
        return 2;
    }
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "ct_provider: must run under valgrind memcheck (it checks nothing otherwise)\n");
        return 2;
    }
    printf("ct_provider: backend %s\n", backend);
    OSSL_PROVIDER *prov;
    libctx = context_with("oblivex", &prov);
    EVP_PKEY *key = secret_key();
    if (key != NULL) {
        uint64_t batched = count_of(prov, "oblivex-batched-operations");
        run_case(key, RSA_PKCS1_PADDING, 1, "PKCS #1 v1.5 signature");
        run_case(key, RSA_PKCS1_PSS_PADDING, 1, "PSS signature");
        run_case(key, RSA_PKCS1_PADDING, 0, "PKCS #1 v1.5 decryption");
        run_case(key, RSA_PKCS1_OAEP_PADDING, 0, "OAEP decryption");
        run_case(key, RSA_NO_PADDING, 0, "raw decryption");
        run_case(key, RSA_PKCS1_WITH_TLS_PADDING, 0, "TLS premaster");
        batched = count_of(prov, "oblivex-batched-operations") - batched;
        /* On AVX2 the jobs' operations went through the engine. */
        CHECK(!engine_batches() || batched == 6 * JOBS, "%llu operations batched on %s",
              (unsigned long long)batched, backend);
        EVP_PKEY_free(key);
    }
    OSSL_LIB_CTX_free(libctx);
    if (test_failures > 0) {
        fprintf(stderr, "ct_provider: %d failures\n", test_failures);
        return 1;
    }
    printf("ct_provider: done\n");
    return 0;
}
