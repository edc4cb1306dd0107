/* The check of batched RSA results against faults (fault_check.c). */
#ifndef OBLIVEX_PROVIDER_FAULT_CHECK_H
#define OBLIVEX_PROVIDER_FAULT_CHECK_H

#include <stddef.h>

#include "provider.h"

/* For each of the `n` results (`width` bytes each, big-endian, secret,
 * one after the other in `results`) of `keys[i]` on input i (likewise in
 * `inputs`): whether result^e mod n gives the input back, into `good[i]`.
 * Returns 0 if the check could not run (memory, engine error): no result
 * is then known good. */
int obx_fault_check(const obx_rsa_key *const *keys, const unsigned char *inputs,
                    const unsigned char *results, size_t n, size_t width, int *good);

#endif
