/*
 * What the provider's tests share, header-only like c_tests/test_util.h
 * (whose failure count CHECK raises): a library context with a module
 * loaded beside the default provider, the module's counters, and an event
 * loop that runs functions in ASYNC jobs as a server's loop would, so
 * that their private operations queue and batch. Include after
 * test_util.h.
 */
#ifndef OBLIVEX_PROVIDER_TEST_HARNESS_H
#define OBLIVEX_PROVIDER_TEST_HARNESS_H

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/async.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define OBLIVEX "provider=oblivex"
#define DEFAULT "provider=default"

/* The most jobs one call of run_async_jobs runs. */
#define MAX_JOBS 16

/* A new library context with `module` and the default provider loaded
 * (the module in *loaded); exits the test if either cannot be. */
static OSSL_LIB_CTX *context_with(const char *module, OSSL_PROVIDER **loaded) {
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    *loaded = ctx != NULL ? OSSL_PROVIDER_load(ctx, module) : NULL;
    if (*loaded == NULL || OSSL_PROVIDER_load(ctx, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        fprintf(stderr, "cannot load %s (OPENSSL_MODULES=%s)\n", module,
                getenv("OPENSSL_MODULES") ? getenv("OPENSSL_MODULES") : "unset");
        exit(1);
    }
    return ctx;
}

/* Whether the provider batches on this process's backend: the IFMA and
 * AVX2 engines do; the portable and MULX/ADX backends never do (their
 * requests run on OpenSSL's exponentiation, provider/batch.c). */
static int engine_batches(void) {
    return strcmp(oblivex_backend_name(), "ifma") == 0 || strcmp(oblivex_backend_name(), "avx2") == 0;
}

/* The provider's count `name` (obx_batch_counts). */
static uint64_t count_of(OSSL_PROVIDER *prov, const char *name) {
    uint64_t value = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_uint64(name, &value), OSSL_PARAM_END};
    CHECK(OSSL_PROVIDER_get_params(prov, params) == 1, "get %s", name);
    return value;
}

/* Whether the paused job of `wait` is ready to resume (a wait fd readable). */
static int ready(ASYNC_WAIT_CTX *wait, int timeout_ms) {
    OSSL_ASYNC_FD fds[4];
    size_t n = 0;
    if (!ASYNC_WAIT_CTX_get_all_fds(wait, NULL, &n) || n == 0 || n > 4 ||
        !ASYNC_WAIT_CTX_get_all_fds(wait, fds, &n)) {
        return 0;
    }
    struct pollfd p[4];
    for (size_t i = 0; i < n; i++) {
        p[i].fd = fds[i];
        p[i].events = POLLIN;
    }
    return poll(p, n, timeout_ms) > 0;
}

/* The wait context's callback (callback mode): marks its job ready. */
static int mark_ready(void *arg) {
    __atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
    return 1;
}

/* Whether job i may resume: its callback was called (callback mode, which
 * the flag's reset consumes) or its wait fd is readable. */
static int resumable(ASYNC_WAIT_CTX *wait, int *flag, int callbacks, int timeout_ms) {
    if (!callbacks) {
        return ready(wait, timeout_ms);
    }
    for (int waited = 0; waited <= timeout_ms; waited++) {
        if (__atomic_exchange_n(flag, 0, __ATOMIC_SEQ_CST)) {
            return 1;
        }
        if (timeout_ms > 0) {
            poll(NULL, 0, 1);
        }
    }
    return 0;
}

/* A job's function and its argument (ASYNC_start_job copies this). */
typedef struct {
    int (*fn)(void *);
    void *arg;
} job_call;

static int run_job_call(void *arg) {
    const job_call *call = arg;
    return call->fn(call->arg);
}

/* Runs `fn(args[i])` for i < n (n <= MAX_JOBS), each in its own ASYNC job,
 * as an application's event loop would: all started, then each resumed
 * when its wait fd is readable (or, with `callbacks`, when its wait
 * context's callback was called). Job `abandon` (if < n) is dropped after
 * its first pause and its wait context freed, as a server drops a
 * connection closed mid-handshake. Returns how many returned 1; a job
 * that never becomes ready (1 s) fails the test. */
static size_t run_async_jobs(int (*fn)(void *), void *const *args, size_t n, int callbacks,
                             size_t abandon) {
    ASYNC_JOB *handle[MAX_JOBS] = {0};
    ASYNC_WAIT_CTX *wait[MAX_JOBS];
    int finished[MAX_JOBS] = {0}, flag[MAX_JOBS] = {0};
    if (n > MAX_JOBS) {
        CHECK(0, "%zu jobs: at most %d", n, MAX_JOBS);
        return 0;
    }
    size_t left = n, succeeded = 0;
    for (size_t i = 0; i < n; i++) {
        wait[i] = ASYNC_WAIT_CTX_new();
        if (callbacks) {
            ASYNC_WAIT_CTX_set_callback(wait[i], mark_ready, &flag[i]);
        }
    }
    while (left > 0) {
        int progressed = 0;
        for (size_t i = 0; i < n; i++) {
            if (finished[i] || (handle[i] != NULL && !resumable(wait[i], &flag[i], callbacks, 0))) {
                continue;
            }
            progressed = 1;
            int ret = 0;
            job_call call = {fn, args[i]};
            switch (ASYNC_start_job(&handle[i], wait[i], &ret, run_job_call, &call, sizeof(call))) {
            case ASYNC_FINISH:
                finished[i] = 1;
                left--;
                succeeded += ret == 1;
                break;
            case ASYNC_PAUSE:
                if (i == abandon) {
                    ASYNC_WAIT_CTX_free(wait[i]);
                    wait[i] = NULL;
                    finished[i] = 1;
                    left--;
                }
                break;
            default:
                CHECK(0, "ASYNC_start_job failed for job %zu", i);
                finished[i] = 1;
                left--;
            }
        }
        if (!progressed) {
            int any = 0;
            for (size_t i = 0; i < n && !any; i++) {
                any = !finished[i] && resumable(wait[i], &flag[i], callbacks, 1000);
                if (any && callbacks) {
                    flag[i] = 1; /* not consumed: resume it in the next pass */
                }
            }
            if (!any) {
                CHECK(0, "%zu paused jobs were never woken", left);
                break;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        ASYNC_WAIT_CTX_free(wait[i]);
    }
    return succeeded;
}

#endif
