/* How a paused ASYNC job is woken (waker.c). */
#ifndef OBLIVEX_PROVIDER_WAKER_H
#define OBLIVEX_PROVIDER_WAKER_H

#include <openssl/async.h>

/* The job's wait fd (an eventfd the provider made and registered in its
 * wait context) and the context's callback, if the application set one,
 * read when the job's request joins the queue: another thread may wake
 * the job, and a wait context is not for sharing. */
typedef struct {
    OSSL_ASYNC_FD fd;
    ASYNC_callback_fn callback;
    void *callback_arg;
} obx_waker;

/* Fills `w` for the wait context `wait`, making and registering its wait
 * fd on first use (`cleanup` runs when the application frees or clears
 * the context). 1 on success. */
int obx_waker_init(ASYNC_WAIT_CTX *wait,
                   void (*cleanup)(ASYNC_WAIT_CTX *, const void *, OSSL_ASYNC_FD, void *),
                   obx_waker *w);

/* Tells the application that the job can be resumed: its callback if set,
 * else its wait fd. */
void obx_wake(const obx_waker *w);

/* Clears the wait fd after a resume; returns how many wake-ups it held
 * (0: the job was resumed without one). */
unsigned long obx_waker_clear(const obx_waker *w);

#endif
