/*
 * The oblivex OpenSSL 3 provider: RSA private operations (signatures and
 * decryption) from many callers, batched on oblivex's engine. Shared
 * declarations of its parts:
 *   provider.c    the entry point and the algorithm tables
 *   rsa_key.c     the key object: OpenSSL's RSA with this provider's
 *                 private exponentiation, and its oblivex CRT key
 *   keymgmt.c     RSA key management (import, export, generation)
 *   batch.c       the queue that batches private exponentiations across
 *                 ASYNC jobs
 *   waker.c       waking a paused job (its wait fd or callback)
 *   fault_check.c every batched result checked with the public exponent
 *   rsa_params.c  the padding and digest parameters both operations read
 *   signature.c   RSA signatures (PKCS #1 v1.5, PSS, raw)
 *   algorithm_id.c  the signatures' DER AlgorithmIdentifier
 *   asym_cipher.c RSA decryption and encryption (PKCS #1 v1.5, OAEP, raw)
 *   tls_premaster.c  TLS 1.2's premaster check, constant time
 *   ct_marks.h    what the constant-time check under valgrind is told is
 *                 public
 *
 * Padding, blinding and the public operations are OpenSSL's own (its RSA
 * code, reached through an RSA_METHOD that replaces only the CRT
 * exponentiation): the provider adds the batching, nothing else.
 */
#ifndef OBLIVEX_PROVIDER_H
#define OBLIVEX_PROVIDER_H

/* The RSA_METHOD and RSA_* padding functions are deprecated in OpenSSL 3
 * but present in every 3.x: the provider's own code is the exponentiation,
 * the rest stays OpenSSL's. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/rsa.h>
#include <openssl/types.h>

#include "ct_marks.h"
#include "oblivex.h"

/* The provider's context: the library context of its own operations (the
 * default provider's digests, and key generation, run there). */
typedef struct obx_prov {
    const OSSL_CORE_HANDLE *core;
    OSSL_LIB_CTX *libctx;
} obx_prov;

/* An RSA key of this provider: OpenSSL's RSA object, whose method runs the
 * private exponentiation through the batch queue, and the oblivex CRT key
 * made from it (NULL where oblivex cannot take the key: more than two
 * primes, primes of different sizes, above 8192 bits; OpenSSL's own
 * exponentiation then serves it). */
typedef struct obx_rsa_key {
    obx_prov *prov;
    RSA *rsa;
    oblivex_rsa_crt_key *crt;
    /* The bit length of each prime where `crt` is set: keys batch together
     * when it is equal (public, like the key's size). */
    int prime_bits;
    /* For the fault check (set with `crt`): oblivex's context of n, and
     * the public exponent, big-endian. */
    oblivex_mont_ctx *n_ctx;
    unsigned char *e;
    size_t e_len;
} obx_rsa_key;

/* rsa_key.c */
int obx_rsa_key_library_init(void);
obx_rsa_key *obx_rsa_key_new(obx_prov *prov);
void obx_rsa_key_free(obx_rsa_key *key);
/* Takes ownership of `rsa` (a key with at least n and e), gives it this
 * provider's method and makes the oblivex key if it is a private 2-prime
 * key oblivex takes. 1 on success, 0 on failure (`rsa` then freed). */
int obx_rsa_key_set(obx_rsa_key *key, RSA *rsa);
/* The key of an RSA object made by obx_rsa_key_set. */
const obx_rsa_key *obx_rsa_key_of(const RSA *rsa);

/* batch.c: the private exponentiation r0 = I^d mod n of RSA_METHOD's
 * rsa_mod_exp for `key`, batched across ASYNC jobs, fault-checked. */
int obx_batch_mod_exp(BIGNUM *r0, const BIGNUM *I, const obx_rsa_key *key, BN_CTX *ctx);

/* What the queue did since the module loaded (all threads): batches run on
 * the engine, the operations in them, the operations OpenSSL's own
 * exponentiation ran (outside a job, or in a batch too small for the
 * engine), and the results the fault check refused. Read as the provider's
 * parameters "oblivex-batches", "oblivex-batched-operations",
 * "oblivex-single-operations" and "oblivex-faults". */
typedef struct {
    uint64_t batches, batched, single, faults;
} obx_batch_counts;
obx_batch_counts obx_batch_counts_read(void);

/* rsa_params.c: the padding-mode and digest parameters. */
int obx_pad_mode_from_param(const OSSL_PARAM *p, int *pad_mode);
int obx_pad_mode_to_param(OSSL_PARAM *p, int pad_mode);
int obx_saltlen_from_param(const OSSL_PARAM *p, int *saltlen);
int obx_saltlen_to_param(OSSL_PARAM *p, int saltlen);
/* The digest named by parameter `name` of `params` (with the properties of
 * parameter `properties_name`), fetched from the provider's library
 * context into `*md`; NULL where `params` does not name one. 1 on success
 * (absent included), 0 for a bad or unknown name. */
int obx_digest_from_params(obx_prov *prov, const OSSL_PARAM params[], const char *name,
                           const char *properties_name, EVP_MD **md);
/* Releases `*slot` and stores `md` there, if `md` is not NULL. */
void obx_replace_digest(EVP_MD **slot, EVP_MD *md);

/* algorithm_id.c: the DER AlgorithmIdentifier of a PKCS #1 v1.5 or PSS
 * signature with digest `md` (`mgf1` NULL: the same), into `*der`
 * (OPENSSL_malloc'd). 1 on success; 0 without a digest or padding that
 * has one. */
int obx_algorithm_id_der(const RSA *rsa, int pad_mode, const EVP_MD *md, const EVP_MD *mgf1,
                         int saltlen, unsigned char **der, int *der_len);

extern const OSSL_DISPATCH obx_rsa_keymgmt_functions[];
extern const OSSL_DISPATCH obx_rsa_signature_functions[];
extern const OSSL_DISPATCH obx_rsa_asym_cipher_functions[];

#endif
