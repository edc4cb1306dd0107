/*
 * Waking paused ASYNC jobs as OpenSSL's async API prescribes: through the
 * wait context's callback where the application set one, else through a
 * wait fd the application polls (an eventfd, registered under this
 * module's key).
 */
#include "waker.h"

#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* The wait fd's key in an ASYNC_WAIT_CTX (its address). */
static const char wait_fd_key = 0;

int obx_waker_init(ASYNC_WAIT_CTX *wait,
                   void (*cleanup)(ASYNC_WAIT_CTX *, const void *, OSSL_ASYNC_FD, void *),
                   obx_waker *w) {
    void *custom;
    if (!ASYNC_WAIT_CTX_get_fd(wait, &wait_fd_key, &w->fd, &custom)) {
        w->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (w->fd < 0) {
            return 0;
        }
        if (!ASYNC_WAIT_CTX_set_wait_fd(wait, &wait_fd_key, w->fd, NULL, cleanup)) {
            close(w->fd);
            return 0;
        }
    }
    if (!ASYNC_WAIT_CTX_get_callback(wait, &w->callback, &w->callback_arg)) {
        w->callback = NULL;
        w->callback_arg = NULL;
    }
    return 1;
}

void obx_wake(const obx_waker *w) {
    if (w->callback != NULL) {
        w->callback(w->callback_arg);
        return;
    }
    uint64_t one = 1;
    /* A full counter (never, in practice) is readable already. */
    (void)!write(w->fd, &one, sizeof(one));
}

unsigned long obx_waker_clear(const obx_waker *w) {
    uint64_t count = 0;
    if (read(w->fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
        return 0; /* EAGAIN: nothing written */
    }
    return (unsigned long)count;
}
