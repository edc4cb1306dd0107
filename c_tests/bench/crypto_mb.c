/* See crypto_mb.h. */
#include "crypto_mb.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Stores dlsym's address in the function pointer `*slot` (POSIX allows
 * the conversion; memcpy keeps it free of aliasing warnings). */
static void load(void *lib, const char *name, void *slot, size_t slot_size, int *missing) {
    void *p = dlsym(lib, name);
    if (p == NULL || slot_size != sizeof p) {
        *missing = 1;
        return;
    }
    memcpy(slot, &p, sizeof p);
}

#define LOAD(field, name) load(lib, name, &out->field, sizeof out->field, &missing)

int crypto_mb_load(struct crypto_mb *out, const char **why) {
    memset(out, 0, sizeof *out);
    const char *named = getenv("OBLIVEX_CRYPTO_MB");
    const char *candidates[] = {named, "libcrypto_mb.so", "libcrypto_mb.so.13", "libcrypto_mb.so.12"};
    void *lib = NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && lib == NULL; i++)
        if (candidates[i] != NULL && candidates[i][0] != '\0') lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        *why = "crypto_mb not found (scripts/install-crypto-mb DIR, then LD_LIBRARY_PATH=DIR/lib)";
        return -1;
    }
    int missing = 0;
    LOAD(exp_buffer_size, "mbx_exp_BufferSize");
    LOAD(exp[0], "mbx_exp1024_mb8");
    LOAD(exp[1], "mbx_exp2048_mb8");
    LOAD(exp[2], "mbx_exp3072_mb8");
    LOAD(exp[3], "mbx_exp4096_mb8");
    LOAD(rsa_private_crt, "mbx_rsa_private_crt_mb8");
    LOAD(rsa_crt_method, "mbx_RSA_private_crt_Method");
    LOAD(rsa_method_buffer_size, "mbx_RSA_Method_BufSize");
    if (missing) {
        *why = "crypto_mb lacks a function the benchmark uses";
        return -1;
    }
    /* mbx_getversion() returns a struct pointer whose layout varies with
     * the release; the library's file name is what is reported. */
    out->version = named != NULL && named[0] != '\0' ? named : "libcrypto_mb.so";
    return 0;
}

mbx_exp_fn crypto_mb_exp(const struct crypto_mb *mb, int bits) {
    switch (bits) {
    case 1024: return mb->exp[0];
    case 2048: return mb->exp[1];
    case 3072: return mb->exp[2];
    case 4096: return mb->exp[3];
    default: return NULL;
    }
}
