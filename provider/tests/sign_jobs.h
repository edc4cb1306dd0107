/*
 * Signing jobs, shared by the provider's tests: a PKCS #1 v1.5 signature
 * of a SHA-256 digest through the module (its private operation the
 * queue's to batch when run in an ASYNC job), run alone or as a group of
 * jobs through harness.h's event loop, and checked under the default
 * provider. Header-only; include after harness.h.
 */
#ifndef OBLIVEX_PROVIDER_TEST_SIGN_JOBS_H
#define OBLIVEX_PROVIDER_TEST_SIGN_JOBS_H

#include <string.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>

/* The longest signature the tests make (8,192-bit keys and a little over). */
#define MAX_SIG 1056

typedef struct {
    OSSL_LIB_CTX *ctx;
    const char *propq; /* the module's (OBLIVEX) unless a test asks otherwise */
    EVP_PKEY *key;
    unsigned char digest[32];
    unsigned char sig[MAX_SIG];
    size_t siglen;
} sign_job;

static int run_sign_job(void *arg) {
    sign_job *job = arg;
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(job->ctx, job->key, job->propq);
    job->siglen = MAX_SIG;
    int ok = pctx != NULL && EVP_PKEY_sign_init(pctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha256()) == 1 &&
             EVP_PKEY_sign(pctx, job->sig, &job->siglen, job->digest, 32) == 1;
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

/* run_async_jobs on sign jobs. */
static size_t run_jobs_with(sign_job *jobs, size_t n, int callbacks, size_t abandon) {
    void *args[MAX_JOBS];
    for (size_t i = 0; i < n; i++) {
        args[i] = &jobs[i];
    }
    return run_async_jobs(run_sign_job, args, n, callbacks, abandon);
}

static size_t run_jobs(sign_job *jobs, size_t n) {
    return run_jobs_with(jobs, n, 0, n);
}

/* `n` jobs signing digests under `keys[i % 2]`. */
static void make_jobs(sign_job *jobs, size_t n, OSSL_LIB_CTX *ctx, EVP_PKEY *const keys[2]) {
    for (size_t i = 0; i < n; i++) {
        memset(&jobs[i], 0, sizeof(jobs[i]));
        jobs[i].ctx = ctx;
        jobs[i].propq = OBLIVEX;
        jobs[i].key = keys[i % 2];
        for (size_t b = 0; b < 32; b++) {
            jobs[i].digest[b] = (unsigned char)(i * 31 + b);
        }
    }
}

/* A job's signature verifies under its own key (the default provider). */
static int job_verifies(const sign_job *job) {
    EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(job->ctx, job->key, DEFAULT);
    int ok = pctx != NULL && EVP_PKEY_verify_init(pctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(pctx, EVP_sha256()) == 1 &&
             EVP_PKEY_verify(pctx, job->sig, job->siglen, job->digest, 32) == 1;
    EVP_PKEY_CTX_free(pctx);
    return ok;
}

#endif
