/* The check of batched RSA results against faults (fault_check.c). */
#ifndef OBLIVEX_PROVIDER_FAULT_CHECK_H
#define OBLIVEX_PROVIDER_FAULT_CHECK_H

#include <stddef.h>

#include "provider.h"

/* For each of the `n` results (`width` bytes each, big-endian, secret) of
 * `keys[i]` on `inputs[i]`: whether result^e mod n gives the input back,
 * into `good[i]`. Returns 0 if the check could not run (memory, engine
 * error): no result is then known good. */
int obx_fault_check(const obx_rsa_key *const *keys, const unsigned char *const *inputs,
                    const unsigned char *const *results, size_t n, size_t width, int *good);

#endif
