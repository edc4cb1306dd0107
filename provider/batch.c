/*
 * The batch queue: RSA private exponentiations from different ASYNC jobs
 * (different TLS connections) run together on oblivex's engine, up to
 * eight at once (one lane group of 1024-bit halves per four operations on
 * AVX-512 IFMA), and every result is checked with the public exponent
 * before it is released.
 *
 * How a batch fills and when it runs, without a timer:
 * - Outside an ASYNC job an operation runs at once on OpenSSL's own
 *   exponentiation (the fastest single-value path).
 * - Inside a job, the request joins the queue of its key size. The eighth
 *   request of a queue runs the batch in its own job, then wakes the others.
 * - Otherwise the job marks itself ready (its wait fd, or the wait
 *   context's callback) and pauses: the application goes on with its other
 *   work and comes back to this job soon. If, by then, no request has joined
 *   the queue, the application had nothing else that would fill the batch
 *   (it was about to wait): the job runs the queue as it is. If requests
 *   did join, the job pauses once more.
 *   A partial batch thus waits one turn of the application's loop, never a
 *   fixed timeout, and a lone operation (one connection at a time) costs one
 *   pause and resume more than OpenSSL's.
 * - A partial batch too small for the engine to beat OpenSSL's one-at-a-
 *   time exponentiation (below `min_batch()`) hands each request back to its
 *   own job, which runs OpenSSL's exponentiation.
 *
 * Requests live on their jobs' stacks (a paused job's stack stays), linked
 * into the queue under one mutex; a job returns only once its request has
 * left the queue and its result is written.
 */
#include "provider.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <openssl/async.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

#include "fault_check.h"
#include "waker.h"

/* Operations per batch: 16 halves, two lane groups of 8. */
#define LANES 8
/* Key sizes (prime bit lengths) batched at once; a further size runs
 * unbatched. */
#define QUEUES 8
/* Largest modulus oblivex's CRT keys take (8192 bits), in bytes. */
#define MAX_WIDTH 1024

typedef enum {
    QUEUED, /* in the queue */
    TAKEN,  /* in a batch that another job is running */
    DONE,   /* result written and checked */
    SINGLE, /* to run by its own job, on OpenSSL's exponentiation */
    FAILED, /* the fault check refused the result: nothing released */
} request_state;

typedef struct request {
    const obx_rsa_key *key;
    unsigned char input[MAX_WIDTH];
    unsigned char output[MAX_WIDTH];
    size_t width;
    request_state state;
    /* The job's wait context; NULL once the application freed it. */
    ASYNC_WAIT_CTX *wait;
    /* How to wake the job, set (under `lock`) just before it first pauses:
     * a wait fd registered by a job that then finishes without pausing
     * would never be reported to the application (HAProxy then trips on an
     * fd it did not add). `has_waker` is 0 until then. */
    obx_waker waker;
    int has_waker;
    struct request *next;         /* in its queue */
    struct request *running_next; /* in `running` while TAKEN */
} request;

typedef struct {
    int prime_bits; /* 0: unused */
    request *head;
    request **tail;
    size_t count;
    /* Requests that ever joined: a job that comes back to an unchanged
     * count knows that nothing joined while it was paused. */
    unsigned long arrivals;
} queue;

/* The wake-ups of a batch just run, made outside the lock (an
 * application's callback may call back into OpenSSL): the wait contexts
 * they concern stay alive until they are done (wait_fd_cleanup waits). */
typedef struct wakes {
    ASYNC_WAIT_CTX *wait[LANES];
    obx_waker waker[LANES];
    size_t count;
    pthread_t thread;
    struct wakes *next;
} wakes;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Broadcast when requests leave TAKEN and when wake-ups end. */
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static queue queues[QUEUES];
/* The TAKEN requests, of every batch being run. */
static request *running;
/* The wake-ups being made. */
static wakes *waking;
static obx_batch_counts counts;

obx_batch_counts obx_batch_counts_read(void) {
    pthread_mutex_lock(&lock);
    obx_batch_counts now = counts;
    pthread_mutex_unlock(&lock);
    return now;
}

/* Fewest requests for which the engine beats as many OpenSSL
 * exponentiations: 2 on the IFMA and AVX2 engines (docs/PROVIDER.md,
 * "Partial batches": with 2 jobs, 1.37x OpenSSL's signatures/s on IFMA
 * and 1.27x on AVX2 at RSA-2048; one alone is slower on IFMA, 0.72x).
 * The portable and MULX/ADX backends never batch. */
static size_t min_batch(void) {
    const char *backend = oblivex_backend_name();
    if (strcmp(backend, "ifma") == 0 || strcmp(backend, "avx2") == 0) {
        return 2;
    }
    return LANES + 1;
}

/* The queue of a prime size, made on first use; NULL when every slot is
 * taken by other sizes. Under `lock`. */
static queue *queue_of(int prime_bits) {
    for (size_t i = 0; i < QUEUES; i++) {
        if (queues[i].prime_bits == prime_bits) {
            return &queues[i];
        }
        if (queues[i].prime_bits == 0) {
            queues[i].prime_bits = prime_bits;
            queues[i].tail = &queues[i].head;
            return &queues[i];
        }
    }
    return NULL;
}

/* Takes every request of `q` (at most LANES) into `taken`, marked TAKEN.
 * Under `lock`. */
static size_t take_all(queue *q, request **taken) {
    size_t n = 0;
    for (request *r = q->head; r != NULL; r = r->next) {
        r->state = TAKEN;
        r->running_next = running;
        running = r;
        taken[n++] = r;
    }
    q->head = NULL;
    q->tail = &q->head;
    q->count = 0;
    return n;
}

/* Whether a thread other than this one is waking the job of `wait`.
 * Under `lock`. */
static int woken_elsewhere(const ASYNC_WAIT_CTX *wait) {
    for (const wakes *w = waking; w != NULL; w = w->next) {
        if (pthread_equal(w->thread, pthread_self())) {
            continue;
        }
        for (size_t i = 0; i < w->count; i++) {
            if (w->wait[i] == wait) {
                return 1;
            }
        }
    }
    return 0;
}

/* Called when the application frees (or clears) a wait context: a
 * request of its job may still be queued if the application dropped the
 * paused job (a connection closed mid-handshake). Such a request leaves the
 * queue, a batch that took it will not wake the freed context, and a
 * wake-up under way ends before the fd is closed. */
static void wait_fd_cleanup(ASYNC_WAIT_CTX *ctx, const void *key, OSSL_ASYNC_FD fd, void *custom) {
    (void)key;
    (void)custom;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < QUEUES; i++) {
        queue *q = &queues[i];
        q->tail = &q->head;
        for (request **link = &q->head; *link != NULL;) {
            request *r = *link;
            if (r->wait == ctx) {
                *link = r->next;
                q->count--;
            } else {
                q->tail = &r->next;
                link = &r->next;
            }
        }
    }
    for (request *r = running; r != NULL; r = r->running_next) {
        if (r->wait == ctx) {
            r->wait = NULL;
        }
    }
    while (woken_elsewhere(ctx)) {
        pthread_cond_wait(&changed, &lock);
    }
    pthread_mutex_unlock(&lock);
    close(fd);
}

#ifdef OBX_PLANT_FAULT
/* Test build only (the `oblivex-planted-fault` module): the last of the
 * `n` results (`width` bytes each) of every batch is corrupted, as a
 * glitch in a CRT half would, so that the tests can see the fault check
 * refuse it. */
static void plant_fault(unsigned char *results, size_t n, size_t width) {
    results[n * width - 1] ^= 1;
}
#endif

/* The engine's results for `n` taken requests, each checked against
 * faults, into `outcome` (DONE, its result written to its request, or
 * FAILED); SINGLE for all when the engine or the check could not run.
 * Called without `lock`. */
static void compute(request **batch, size_t n, request_state *outcome) {
    size_t width = batch[0]->width, written = 0;
    const oblivex_rsa_crt_key *crt[LANES];
    const obx_rsa_key *keys[LANES];
    unsigned char *inputs = OPENSSL_malloc(n * width);
    unsigned char *results = OPENSSL_secure_malloc(n * width);
    int good[LANES];
    int ran = inputs != NULL && results != NULL;
    if (ran) {
        for (size_t i = 0; i < n; i++) {
            crt[i] = batch[i]->key->crt;
            keys[i] = batch[i]->key;
            memcpy(inputs + i * width, batch[i]->input, width);
        }
        ran = oblivex_rsa_private_batch_keys(crt, inputs, n * width, n, results, n * width,
                                             &written) == OBLIVEX_OK;
    }
    if (ran) {
#ifdef OBX_PLANT_FAULT
        plant_fault(results, n, width);
#endif
        ran = obx_fault_check(keys, inputs, results, n, width, good);
    }
    for (size_t i = 0; i < n; i++) {
        outcome[i] = !ran ? SINGLE : good[i] ? DONE : FAILED;
        /* Only a checked result reaches its request. */
        if (outcome[i] == DONE) {
            memcpy(batch[i]->output, results + i * width, width);
        }
    }
    OPENSSL_free(inputs);
    if (results != NULL) {
        OPENSSL_secure_clear_free(results, n * width);
    }
}

/* Runs `n` taken requests: on the engine when there are enough of them,
 * else back to their jobs (SINGLE). Sets their states, then wakes every
 * job but `self`'s. Called without `lock`. */
static void run_batch(request **batch, size_t n, const request *self) {
    request_state outcome[LANES];
    if (n >= min_batch()) {
        compute(batch, n, outcome);
    } else {
        for (size_t i = 0; i < n; i++) {
            outcome[i] = SINGLE;
        }
    }
    wakes w = {.count = 0, .thread = pthread_self()};
    pthread_mutex_lock(&lock);
    if (outcome[0] != SINGLE) {
        counts.batches++;
        counts.batched += n;
    }
    for (size_t i = 0; i < n; i++) {
        request *r = batch[i];
        counts.faults += outcome[i] == FAILED;
        for (request **link = &running; *link != NULL; link = &(*link)->running_next) {
            if (*link == r) {
                *link = r->running_next;
                break;
            }
        }
        if (r != self && r->wait != NULL && r->has_waker) {
            w.wait[w.count] = r->wait;
            w.waker[w.count++] = r->waker;
        }
        /* From here the request's job may return (its stack is gone). */
        r->state = outcome[i];
    }
    w.next = waking;
    waking = &w;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < w.count; i++) {
        obx_wake(&w.waker[i]);
    }
    pthread_mutex_lock(&lock);
    for (wakes **link = &waking; *link != NULL; link = &(*link)->next) {
        if (*link == &w) {
            *link = w.next;
            break;
        }
    }
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

/* The secret big-endian `bytes` (`width` of them) as `out`, flagged
 * BN_FLG_CONSTTIME. BN_bin2bn skips leading zero bytes, a branch on the
 * value; a leading 1 byte leaves none to skip, and masking it off again
 * normalizes at the granularity of 64-bit words only (the top word of a
 * result is zero with probability about 2^-56). */
static int secret_bytes_to_bn(const unsigned char *bytes, size_t width, BIGNUM *out) {
    unsigned char prefixed[MAX_WIDTH + 1];
    prefixed[0] = 1;
    memcpy(prefixed + 1, bytes, width);
    int ok = BN_bin2bn(prefixed, (int)width + 1, out) != NULL && BN_mask_bits(out, (int)(8 * width));
    OPENSSL_cleanse(prefixed, width + 1);
    BN_set_flags(out, BN_FLG_CONSTTIME);
    return ok;
}

/* OpenSSL's own CRT exponentiation (which checks its result too). */
static int single(BIGNUM *r0, const BIGNUM *I, const obx_rsa_key *key, BN_CTX *ctx) {
    pthread_mutex_lock(&lock);
    counts.single++;
    pthread_mutex_unlock(&lock);
    return RSA_meth_get_mod_exp(RSA_PKCS1_OpenSSL())(r0, I, key->rsa, ctx);
}

/* Gives the request its waker before its job pauses. Under `lock` (the
 * wait context is only the job's own). 0 if none can be made. */
static int prepare_to_pause(request *req) {
    if (!req->has_waker) {
        req->has_waker = obx_waker_init(req->wait, wait_fd_cleanup, &req->waker);
    }
    return req->has_waker;
}

/* Joins the queue and waits for the request's result, running the queue
 * when it is full or when nothing joined during a pause. */
static request_state wait_for_result(request *req, queue *q) {
    request *taken[LANES];
    pthread_mutex_lock(&lock);
    req->next = NULL;
    *q->tail = req;
    q->tail = &req->next;
    q->count++;
    q->arrivals++;
    while (req->state == QUEUED || req->state == TAKEN) {
        size_t n = 0;
        if (q->count == LANES) {
            n = take_all(q, taken);
        } else if (req->state == QUEUED) {
            if (!prepare_to_pause(req)) {
                n = take_all(q, taken); /* cannot pause: run what there is */
            }
        }
        if (n == 0 && req->state == QUEUED) {
            /* Ready at once: the application runs its other jobs first. */
            unsigned long seen = q->arrivals;
            pthread_mutex_unlock(&lock);
            obx_wake(&req->waker);
            int paused = ASYNC_pause_job();
            obx_waker_clear(&req->waker);
            pthread_mutex_lock(&lock);
            /* Nothing joined meanwhile (or no pause was possible): nothing
             * else will fill the batch now. */
            if (req->state == QUEUED && (!paused || q->arrivals == seen)) {
                n = take_all(q, taken);
            }
        } else if (n == 0 && req->state == TAKEN) {
            /* A job of another thread runs the batch (one of this thread
             * would have finished it before any other job here resumed).
             * Pause until it wakes this job; if the application resumes it
             * before, or it cannot pause, wait for the batch here. */
            int woken = 0;
            if (prepare_to_pause(req)) {
                pthread_mutex_unlock(&lock);
                woken = ASYNC_pause_job() && obx_waker_clear(&req->waker) > 0;
                pthread_mutex_lock(&lock);
            }
            if (!woken && req->state == TAKEN) {
                pthread_cond_wait(&changed, &lock);
            }
        }
        if (n > 0) {
            pthread_mutex_unlock(&lock);
            run_batch(taken, n, req);
            pthread_mutex_lock(&lock);
        }
    }
    /* A wake-up from another thread may still be on its way to this job's
     * fd: let it land, and clear it, so that the next operation on this
     * wait context does not resume at once. */
    while (woken_elsewhere(req->wait)) {
        pthread_cond_wait(&changed, &lock);
    }
    request_state state = req->state;
    pthread_mutex_unlock(&lock);
    if (req->has_waker) {
        obx_waker_clear(&req->waker);
    }
    return state;
}

int obx_batch_mod_exp(BIGNUM *r0, const BIGNUM *I, const obx_rsa_key *key, BN_CTX *ctx) {
    ASYNC_JOB *job = ASYNC_get_current_job();
    ASYNC_WAIT_CTX *wait = job != NULL ? ASYNC_get_wait_ctx(job) : NULL;
    size_t width = (size_t)RSA_size(key->rsa);
    /* Kept on the job's stack while it is paused; wiped below. */
    request req = {.key = key, .width = width, .state = QUEUED, .wait = wait};
    if (wait == NULL || width > MAX_WIDTH) {
        return single(r0, I, key, ctx);
    }
    pthread_mutex_lock(&lock);
    queue *q = queue_of(key->prime_bits);
    pthread_mutex_unlock(&lock);
    /* I is below n (the padding made it so): public. */
    if (q == NULL || BN_bn2binpad(I, req.input, (int)width) != (int)width) {
        return single(r0, I, key, ctx);
    }
    request_state state = wait_for_result(&req, q);
    int ok;
    if (state == SINGLE) {
        ok = single(r0, I, key, ctx);
    } else if (state == DONE) {
        ok = secret_bytes_to_bn(req.output, width, r0);
    } else {
        ERR_raise_data(ERR_LIB_PROV, ERR_R_INTERNAL_ERROR,
                       "oblivex: the RSA result failed its check with the public exponent "
                       "(a fault): not released");
        ok = 0;
    }
    OPENSSL_cleanse(req.output, sizeof(req.output));
    return ok;
}
