/* The TLS 1.2 RSA premaster secret out of a decrypted PKCS #1 v1.5 block,
 * in constant time (tls_premaster.c). */
#ifndef OBLIVEX_PROVIDER_TLS_PREMASTER_H
#define OBLIVEX_PROVIDER_TLS_PREMASTER_H

#include <stddef.h>

#define OBX_TLS_PREMASTER_LEN 48

/* Writes into `out` the 48-byte premaster secret held by the decrypted
 * block `em` (`len` bytes, the modulus's length, at least 59) if the block
 * is well formed and the secret starts with `client_version` (or
 * `alt_version`, if not 0: a client that sent the negotiated version);
 * else `random`, which the caller drew beforehand. Constant time in `em`. */
void obx_tls_premaster(const unsigned char *em, size_t len, unsigned client_version,
                       unsigned alt_version, const unsigned char random[OBX_TLS_PREMASTER_LEN],
                       unsigned char out[OBX_TLS_PREMASTER_LEN]);

#endif
