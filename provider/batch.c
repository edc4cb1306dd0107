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

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <openssl/async.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

/* Operations per batch: 16 halves, two lane groups of 8. */
#define LANES 8
/* Key sizes (prime bit lengths) batched at once; a further size runs
 * unbatched. */
#define QUEUES 8
/* Largest modulus oblivex's CRT keys take (8192 bits), in bytes. */
#define MAX_WIDTH 1024

typedef enum {
    QUEUED,  /* in the queue */
    TAKEN,   /* in a batch that another job is running */
    DONE,    /* result written and checked */
    SINGLE,  /* to run by its own job, on OpenSSL's exponentiation */
    FAILED,  /* the fault check refused the result: nothing released */
} request_state;

typedef struct request {
    const obx_rsa_key *key;
    unsigned char input[MAX_WIDTH];
    unsigned char output[MAX_WIDTH];
    size_t width;
    request_state state;
    /* The job's wait context; NULL once the application freed it. */
    ASYNC_WAIT_CTX *wait;
    /* How to wake the job, read from its wait context when it joined
     * (another thread may wake it, and a wait context is not shared). */
    OSSL_ASYNC_FD fd;
    ASYNC_callback_fn callback;
    void *callback_arg;
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static queue queues[QUEUES];
/* The TAKEN requests, of every batch being run. */
static request *running;
/* Under `lock`. */
static obx_batch_counts counts;

obx_batch_counts obx_batch_counts_read(void) {
    pthread_mutex_lock(&lock);
    obx_batch_counts now = counts;
    pthread_mutex_unlock(&lock);
    return now;
}

/* The wait fd's key in an ASYNC_WAIT_CTX (its address). */
static const char wait_fd_key = 0;

/* Fewest requests for which the engine beats as many OpenSSL
 * exponentiations, by backend (measured, docs/PROVIDER.md). */
static size_t min_batch(void) {
    const char *backend = oblivex_backend_name();
    if (strcmp(backend, "ifma") == 0) {
        return 3;
    }
    if (strcmp(backend, "avx2") == 0) {
        return 6;
    }
    return LANES + 1; /* portable, mulx: never */
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

/* Called when the application frees (or clears) a wait context: a
 * request of its job may still be queued if the application dropped the
 * paused job (a connection closed mid-handshake). Such a request leaves the
 * queue, and a batch that took it will not wake the freed context. */
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
    pthread_mutex_unlock(&lock);
    close(fd);
}

/* The job's wait fd (an eventfd), made on first use; -1 on failure. */
static int wait_fd_of(ASYNC_WAIT_CTX *wait) {
    OSSL_ASYNC_FD fd;
    void *custom;
    if (ASYNC_WAIT_CTX_get_fd(wait, &wait_fd_key, &fd, &custom)) {
        return fd;
    }
    fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    if (!ASYNC_WAIT_CTX_set_wait_fd(wait, &wait_fd_key, fd, NULL, wait_fd_cleanup)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Tells the application that the job of `r` can be resumed: through the
 * callback of its wait context if it set one (called under the queue's
 * lock when it wakes another job: a callback only schedules the job, it
 * must not run it), else through the wait fd. */
static void wake(const request *r) {
    if (r->callback != NULL) {
        r->callback(r->callback_arg);
        return;
    }
    uint64_t one = 1;
    /* A full counter (never, in practice) is readable already. */
    (void)!write(r->fd, &one, sizeof(one));
}

/* Clears the wait fd after a resume. */
static void clear(const request *r) {
    uint64_t count;
    (void)!read(r->fd, &count, sizeof(count));
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

/* The check against faults (a wrong CRT half gives away a prime: Boneh,
 * DeMillo and Lipton; Lenstra): r^e mod n for every result r of the
 * batch, on the engine (constant time in r; e and n are public), must
 * give the request's input back. Writes into `good[i]` whether result i
 * passed; 0 if the check could not run (every result then refused). */
static int results_check(request **batch, size_t n, int good[LANES]) {
    size_t width = batch[0]->width, e_len = 0;
    for (size_t i = 0; i < n; i++) {
        e_len = batch[i]->key->e_len > e_len ? batch[i]->key->e_len : e_len;
    }
    const oblivex_mont_ctx *ctxs[LANES];
    unsigned char *results = OPENSSL_secure_malloc(n * width);
    unsigned char *exponents = OPENSSL_zalloc(n * e_len);
    unsigned char *powers = OPENSSL_malloc(n * width);
    size_t written = 0;
    int ran = results != NULL && exponents != NULL && powers != NULL;
    if (ran) {
        for (size_t i = 0; i < n; i++) {
            const obx_rsa_key *key = batch[i]->key;
            ctxs[i] = key->n_ctx;
            memcpy(results + i * width, batch[i]->output, width);
            memcpy(exponents + (i + 1) * e_len - key->e_len, key->e, key->e_len);
        }
        ran = oblivex_mod_exp_batch_multi(ctxs, results, n * width, exponents, n * e_len, n,
                                          powers, n * width, &written) == OBLIVEX_OK &&
              written == n * width;
    }
    for (size_t i = 0; i < n; i++) {
        /* The power is the public input unless there was a fault. */
        good[i] = ran && memcmp(powers + i * width, batch[i]->input, width) == 0;
    }
    if (results != NULL) {
        OPENSSL_secure_clear_free(results, n * width);
    }
    OPENSSL_free(exponents);
    OPENSSL_free(powers);
    return ran;
}

#ifdef OBX_PLANT_FAULT
/* Test build only (the `oblivex-planted-fault` module): the last result of
 * every batch is corrupted, as a glitch in a CRT half would, so that the
 * tests can see the fault check refuse it. */
static void plant_fault(request **batch, size_t n) {
    batch[n - 1]->output[batch[n - 1]->width - 1] ^= 1;
}
#endif

/* Runs `n` taken requests: on the engine when there are enough of them,
 * each result checked; else back to their jobs. Marks each DONE, FAILED
 * or SINGLE and wakes every job but `self`'s. Called without `lock`. */
static void run_batch(request **batch, size_t n, const request *self) {
    request_state outcome[LANES];
    int batched = 0;
    if (n >= min_batch()) {
        const oblivex_rsa_crt_key *keys[LANES];
        unsigned char *inputs = OPENSSL_malloc(n * batch[0]->width);
        unsigned char *outputs = OPENSSL_secure_malloc(n * batch[0]->width);
        size_t width = batch[0]->width, written = 0;
        if (inputs != NULL && outputs != NULL) {
            for (size_t i = 0; i < n; i++) {
                keys[i] = batch[i]->key->crt;
                memcpy(inputs + i * width, batch[i]->input, width);
            }
            batched = oblivex_rsa_private_batch_keys(keys, inputs, n * width, n, outputs,
                                                     n * width, &written) == OBLIVEX_OK;
        }
        if (batched) {
            for (size_t i = 0; i < n; i++) {
                memcpy(batch[i]->output, outputs + i * width, width);
            }
#ifdef OBX_PLANT_FAULT
            plant_fault(batch, n);
#endif
            int good[LANES];
            results_check(batch, n, good);
            for (size_t i = 0; i < n; i++) {
                outcome[i] = good[i] ? DONE : FAILED;
                if (!good[i]) {
                    OPENSSL_cleanse(batch[i]->output, width);
                }
            }
        }
        OPENSSL_free(inputs);
        if (outputs != NULL) {
            OPENSSL_secure_clear_free(outputs, n * width);
        }
    }
    /* The states change and the jobs are woken under the lock, so that a
     * wait context freed meanwhile (wait_fd_cleanup) is not touched. */
    pthread_mutex_lock(&lock);
    if (batched) {
        counts.batches++;
        counts.batched += n;
    }
    for (size_t i = 0; i < n; i++) {
        batch[i]->state = batched ? outcome[i] : SINGLE;
        counts.faults += batched && outcome[i] == FAILED;
        for (request **link = &running; *link != NULL; link = &(*link)->running_next) {
            if (*link == batch[i]) {
                *link = batch[i]->running_next;
                break;
            }
        }
        if (batch[i] != self && batch[i]->wait != NULL) {
            wake(batch[i]);
        }
    }
    pthread_mutex_unlock(&lock);
}

/* OpenSSL's own CRT exponentiation (which checks its result too). */
static int single(BIGNUM *r0, const BIGNUM *I, const obx_rsa_key *key, BN_CTX *ctx) {
    pthread_mutex_lock(&lock);
    counts.single++;
    pthread_mutex_unlock(&lock);
    return RSA_meth_get_mod_exp(RSA_PKCS1_OpenSSL())(r0, I, key->rsa, ctx);
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
    for (;;) {
        size_t n = 0;
        if (q->count == LANES) {
            n = take_all(q, taken);
        }
        if (n == 0 && (req->state == QUEUED || req->state == TAKEN)) {
            unsigned long seen = q->arrivals;
            int self_wake = req->state == QUEUED;
            pthread_mutex_unlock(&lock);
            if (self_wake) {
                wake(req);
            }
            if (!ASYNC_pause_job()) {
                /* Cannot pause: nothing else can run the queue meanwhile. */
                pthread_mutex_lock(&lock);
                n = req->state == QUEUED ? take_all(q, taken) : 0;
            } else {
                clear(req);
                pthread_mutex_lock(&lock);
                if (req->state == QUEUED && q->arrivals == seen) {
                    n = take_all(q, taken);
                }
            }
        }
        if (n > 0) {
            pthread_mutex_unlock(&lock);
            run_batch(taken, n, req);
            pthread_mutex_lock(&lock);
        }
        if (req->state != QUEUED && req->state != TAKEN) {
            request_state state = req->state;
            pthread_mutex_unlock(&lock);
            return state;
        }
    }
}

int obx_batch_mod_exp(BIGNUM *r0, const BIGNUM *I, const obx_rsa_key *key, BN_CTX *ctx) {
    ASYNC_JOB *job = ASYNC_get_current_job();
    ASYNC_WAIT_CTX *wait = job != NULL ? ASYNC_get_wait_ctx(job) : NULL;
    size_t width = (size_t)RSA_size(key->rsa);
    int fd = wait != NULL ? wait_fd_of(wait) : -1;
    if (fd < 0 || width > MAX_WIDTH) {
        return single(r0, I, key, ctx);
    }
    pthread_mutex_lock(&lock);
    queue *q = queue_of(key->prime_bits);
    pthread_mutex_unlock(&lock);
    if (q == NULL) {
        return single(r0, I, key, ctx);
    }
    /* Kept on the job's stack (OPENSSL_cleanse below) while it is paused. */
    request req = {.key = key, .width = width, .state = QUEUED, .wait = wait, .fd = fd};
    if (!ASYNC_WAIT_CTX_get_callback(wait, &req.callback, &req.callback_arg)) {
        req.callback = NULL;
    }
    /* I is below n (the padding or the blinding made it so): public. */
    if (BN_bn2binpad(I, req.input, (int)width) != (int)width) {
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
