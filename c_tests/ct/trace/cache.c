/* What the tracer decides once per code address (a decoded instruction, a
 * segment), kept in a table keyed by the address: open addressing, grown
 * when three quarters full. Code does not change while it is traced. */
#include <stdio.h>
#include <stdlib.h>

#include "tracer.h"

static size_t slot_of(uint64_t address, size_t count) {
    return (size_t)((address * 0x9e3779b97f4a7c15ULL) >> 20) & (count - 1);
}

static void grow(struct ct_cache *cache) {
    size_t count = cache->count ? 2 * cache->count : 1 << 14;
    struct ct_cache_slot *fresh = calloc(count, sizeof *fresh);
    if (!fresh) {
        perror("ct_trace: cache");
        exit(CT_EXIT_ERROR);
    }
    for (size_t i = 0; i < cache->count; i++) {
        if (cache->slots[i].value) {
            size_t j = slot_of(cache->slots[i].address, count);
            while (fresh[j].value) j = (j + 1) & (count - 1);
            fresh[j] = cache->slots[i];
        }
    }
    free(cache->slots);
    cache->slots = fresh;
    cache->count = count;
}

void *ct_cache_get(struct ct_cache *cache, uint64_t address, void *(*make)(pid_t, uint64_t), pid_t pid) {
    if (4 * (cache->used + 1) > 3 * cache->count) grow(cache);
    size_t j = slot_of(address, cache->count);
    while (cache->slots[j].value) {
        if (cache->slots[j].address == address) return cache->slots[j].value;
        j = (j + 1) & (cache->count - 1);
    }
    void *value = make(pid, address);
    if (!value) {
        perror("ct_trace: cache");
        exit(CT_EXIT_ERROR);
    }
    cache->slots[j].address = address;
    cache->slots[j].value = value;
    cache->used++;
    return value;
}
