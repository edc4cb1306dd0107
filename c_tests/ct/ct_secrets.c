/* Constant-time check (the "ctgrind" method): run under valgrind memcheck
 * with --error-exitcode=1. Every secret is marked undefined right after it
 * is created: here, the modexp bases and exponents and the OPRF server
 * keys and the dealt secrets given as bytes; inside the library, every
 * coin drawn from the OS (blinds, verification factors, balancer
 * positions, polynomial coefficients, random keys) is marked by its RNG.
 * memcheck then reports any branch or memory index that depends on a
 * secret. Results are declassified (marked defined) only when the design
 * publishes them, and before this program compares them.
 *
 * Covers: batch modexp (one modulus, several sizes; one modulus per
 * value), RSA-CRT keys and private operations, server batch evaluation on every group, the checked OPRF client
 * (blind, verify, finalize) on every group, the threshold dealer, share
 * evaluation and the threshold OPRF / blind BLS / ElGamal clients. On the
 * portable, MULX/ADX and AVX2 backends (OBLIVEX_BACKEND names which; ctest
 * runs each): valgrind runs AVX2, MULX and ADX code but not AVX-512. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "oblivex.h"
#include "rsa_test_key.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int failures = 0;

static void expect_ok(int status, const char *what) {
    PUBLIC(&status, sizeof status);
    if (status != OBLIVEX_OK) {
        fprintf(stderr, "%s: status %d (%s)\n", what, status, oblivex_status_str(status));
        failures++;
    }
}

static void fill(uint8_t *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)(seed * 131u + i * 29u + (i >> 3));
    }
}

static void test_modexp(void) {
    static const size_t bits[] = {1024, 2048, 3072};
    static uint8_t m[512], m2[512], b[9 * 512], e[9 * 512], out[9 * 512];
    for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++) {
        size_t len = bits[k] / 8, count = 9; /* a full group of 8 and a tail */
        if (len == 0 || len > sizeof m) {
            return;
        }
        fill(m, len, (unsigned)k + 1);
        m[0] |= 0x80;
        m[len - 1] |= 1;
        fill(b, count * len, 7);
        fill(e, count * len, 11);
        oblivex_mont_ctx *ctx = NULL;
        expect_ok(oblivex_mont_ctx_new(m, len, &ctx), "modexp context");
        SECRET(b, count * len);
        SECRET(e, count * len);
        size_t written = 0;
        expect_ok(oblivex_mod_exp_batch(ctx, b, count * len, e, count * len, count, out, sizeof out, &written),
            "modexp batch");
        PUBLIC(out, sizeof out);
        PUBLIC(&written, sizeof written);
        /* One modulus per value (CRT-style: two moduli alternating). */
        memcpy(m2, m, len);
        m2[1] ^= 0x5a;
        oblivex_mont_ctx *ctx2 = NULL;
        expect_ok(oblivex_mont_ctx_new(m2, len, &ctx2), "second context");
        const oblivex_mont_ctx *ctxs[9];
        for (size_t i = 0; i < count; i++) {
            ctxs[i] = (i & 1) ? ctx2 : ctx;
        }
        SECRET(b, count * len);
        SECRET(e, count * len);
        expect_ok(oblivex_mod_exp_batch_multi(ctxs, b, count * len, e, count * len, count, out, sizeof out, &written),
                  "modexp per-value moduli");
        PUBLIC(out, sizeof out);
        oblivex_mont_ctx_free(ctx);
        oblivex_mont_ctx_free(ctx2);
    }
}

static const uint8_t in_a[] = "alpha", in_b[] = "bravo", in_c[] = "charlie";
static const uint8_t *const inputs[9] = {in_a, in_b, in_c, in_a, in_b, in_c, in_a, in_b, in_c};
static const size_t input_lens[9] = {5, 5, 7, 5, 5, 7, 5, 5, 7};

#define MAXE 512
#define MAXREQ (8 * MAXE)

/* Server evaluation with a key given as (secret) bytes, and the checked
 * client around it, both checks: on 3 inputs, and on P-256 also on 9 (10
 * elements sent with the balancer: on AVX2 the engine leaves the answer's
 * last 2 to the one-at-a-time path, which then runs the committed-key
 * client's additive unblinding). */
static void test_oprf(int suite) {
    size_t el = oblivex_suite_element_len(suite), sl = oblivex_suite_scalar_len(suite), written = 0;
    static uint8_t key[MAXE], pk[MAXE], request[MAXREQ], response[MAXREQ], outputs[9 * 64];
    fill(key, sl, 3);
    key[0] = 0;
    key[sl - 1] = 0; /* below the group order whatever the byte order */
    SECRET(key, sl);
    oblivex_oprf_server *server = NULL;
    expect_ok(oblivex_oprf_server_new(suite, OBLIVEX_OPRF_MODE_OPRF, key, sl, &server), "server from secret key");
    expect_ok(oblivex_oprf_server_public_key(server, pk, sizeof pk, &written), "public key");
    PUBLIC(pk, sizeof pk); /* published by design */
    PUBLIC(&written, sizeof written);
    /* 9 inputs too where an engine leaves short tails to the portable path
     * (P-256 and BLS12-381 on AVX2): a full vector then runs on the engine. */
    size_t rounds = suite == OBLIVEX_SUITE_P256_SHA256 || suite == OBLIVEX_SUITE_BLS12381G1_SHA256 ? 4 : 2;
    for (size_t round = 0; round < rounds; round++) {
        int check = round % 2 == 0 ? OBLIVEX_CHECK_COMMITTED_KEY : OBLIVEX_CHECK_KEY_FREE;
        size_t count = round < 2 ? 3 : 9;
        oblivex_checked_oprf_batch *client = NULL;
        size_t request_len = 0, response_len = 0;
        int committed = check == OBLIVEX_CHECK_COMMITTED_KEY; /* the key-free check takes no key */
        expect_ok(oblivex_checked_oprf_batch_blind(suite, check, 0, committed ? pk : NULL, committed ? el : 0,
                                                   inputs, input_lens, count, request,
                                                   sizeof request, &request_len, &client),
                  "checked blind");
        PUBLIC(&request_len, sizeof request_len);
        expect_ok(oblivex_oprf_server_evaluate(server, request, request_len, NULL, 0, response, sizeof response,
                                               &response_len, NULL, 0, NULL),
                  "server evaluate");
        PUBLIC(&response_len, sizeof response_len);
        expect_ok(oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, sizeof outputs,
                                                      &written),
                  "checked finalize");
        PUBLIC(outputs, sizeof outputs);
        oblivex_checked_oprf_batch_free(client);
    }
    oblivex_oprf_server_free(server);
}

/* The proving modes: the server's DLEQ proof uses its key and a fresh
 * nonce (both secret), POPRF also the key tweaked by info; the client
 * checks the proof and finalizes. The secret key goes in as bytes. */
static void test_proving_modes(int suite) {
    size_t el = oblivex_suite_element_len(suite), sl = oblivex_suite_scalar_len(suite), written = 0;
    static uint8_t key[MAXE], pk[MAXE], blinded[MAXREQ], evaluated[MAXREQ], proof[2 * MAXE], outputs[9 * 64];
    /* BLS12-381 on AVX2 leaves up to 5 elements to blst: 9 reach its engine. */
    size_t count = suite == OBLIVEX_SUITE_BLS12381G1_SHA256 ? 9 : 3;
    static const uint8_t info[] = "ct info";
    for (int mode = OBLIVEX_OPRF_MODE_VOPRF; mode <= OBLIVEX_OPRF_MODE_POPRF; mode++) {
        size_t info_len = mode == OBLIVEX_OPRF_MODE_POPRF ? sizeof info - 1 : 0;
        fill(key, sl, 5 + (unsigned)mode);
        key[0] = 0;
        key[sl - 1] = 0; /* below the group order whatever the byte order */
        SECRET(key, sl);
        oblivex_oprf_server *server = NULL;
        expect_ok(oblivex_oprf_server_new(suite, mode, key, sl, &server), "proving server from secret key");
        expect_ok(oblivex_oprf_server_public_key(server, pk, sizeof pk, &written), "public key");
        PUBLIC(pk, sizeof pk); /* published by design */
        oblivex_oprf_batch *batch = NULL;
        size_t blinded_len = 0, evaluated_len = 0, proof_len = 0;
        expect_ok(oblivex_oprf_batch_blind(suite, mode, inputs, input_lens, count, info, info_len, pk, el, blinded,
                                           sizeof blinded, &blinded_len, &batch),
                  "blind");
        PUBLIC(&blinded_len, sizeof blinded_len);
        expect_ok(oblivex_oprf_server_evaluate(server, blinded, blinded_len, info, info_len, evaluated,
                                               sizeof evaluated, &evaluated_len, proof, sizeof proof, &proof_len),
                  "evaluate with proof");
        PUBLIC(&evaluated_len, sizeof evaluated_len);
        PUBLIC(&proof_len, sizeof proof_len);
        expect_ok(oblivex_oprf_batch_finalize(batch, evaluated, evaluated_len, proof, proof_len, outputs,
                                              sizeof outputs, &written),
                  "verify and finalize");
        PUBLIC(outputs, sizeof outputs);
        oblivex_oprf_batch_free(batch);
        oblivex_oprf_server_free(server);
    }
}

#define M 5
#define T 3

static void respond(oblivex_key_share *shares[M], const uint8_t *request, size_t request_len, uint16_t ids[M],
                    uint8_t bytes[M][MAXREQ], const uint8_t *ptrs[M], size_t lens[M]) {
    for (int i = 0; i < M; i++) {
        ids[i] = (uint16_t)(i + 1);
        expect_ok(oblivex_threshold_server_evaluate(shares[i], NULL, 0, request, request_len, bytes[i], MAXREQ,
                                                    &lens[i]),
                  "share evaluate");
        PUBLIC(&lens[i], sizeof lens[i]);
        ptrs[i] = bytes[i];
    }
}

static void test_threshold(int suite) {
    size_t sl = oblivex_suite_scalar_len(suite), el = oblivex_suite_element_len(suite), written = 0, n = 0;
    static uint8_t secret[MAXE], request[MAXREQ], bytes[M][MAXREQ], outputs[8 * MAXE], pk[MAXE];
    static uint8_t items[3 * 2 * MAXE], scratch[64];
    const uint8_t *ptrs[M];
    size_t lens[M];
    uint16_t ids[M], cheaters[M];
    fill(secret, sl, 5);
    secret[0] = 0;
    secret[sl - 1] = 0;
    SECRET(secret, sl);
    oblivex_key_share *shares[M];
    oblivex_commitments *commitments = NULL;
    expect_ok(oblivex_threshold_deal(suite, secret, sl, T, M, shares, &commitments), "deal");
    for (int i = 0; i < M; i++) {
        expect_ok(oblivex_commitments_verify_share(commitments, shares[i]), "verify share");
    }
    /* Threshold OPRF. */
    oblivex_threshold_oprf_batch *client = NULL;
    expect_ok(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, 3, NULL, 0, 0, request,
                                                  sizeof request, &written, &client),
              "threshold blind");
    PUBLIC(&written, sizeof written);
    respond(shares, request, written, ids, bytes, ptrs, lens);
    expect_ok(oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, lens, M, outputs, sizeof outputs, &written,
                                                     cheaters, M, &n),
              "threshold finalize");
    PUBLIC(outputs, sizeof outputs);
    oblivex_threshold_oprf_batch_free(client);
    /* ElGamal: KEM encapsulations and their decryption (blinded). */
    expect_ok(oblivex_commitments_public_key(commitments, pk, sizeof pk, &written), "public key");
    for (int i = 0; i < 3; i++) {
        expect_ok(oblivex_elgamal_encapsulate(suite, pk, el, items + i * el, el, &written, scratch, sizeof scratch,
                                              &n),
                  "encapsulate");
        PUBLIC(items + i * el, el); /* an encapsulation is public */
    }
    oblivex_elgamal_batch *decryptor = NULL;
    expect_ok(oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_KEM_SECRETS, items, 3 * el, 3, true, NULL, 0, 0,
                                         request, sizeof request, &written, &decryptor),
              "decryption request");
    PUBLIC(&written, sizeof written);
    respond(shares, request, written, ids, bytes, ptrs, lens);
    expect_ok(oblivex_elgamal_batch_finalize(decryptor, ids, ptrs, lens, M, outputs, sizeof outputs, &written,
                                            cheaters, M, &n),
              "decapsulate");
    PUBLIC(outputs, sizeof outputs);
    oblivex_elgamal_batch_free(decryptor);
    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_commitments_free(commitments);
}

static void test_bls(void) {
    static uint8_t request[MAXREQ], bytes[M][MAXREQ], signatures[3 * 48];
    const uint8_t *ptrs[M];
    size_t lens[M], written = 0, n = 0;
    uint16_t ids[M], cheaters[M];
    oblivex_key_share *shares[M];
    oblivex_bls_key_set *key_set = NULL;
    expect_ok(oblivex_bls_deal(NULL, 0, T, M, shares, &key_set), "bls deal");
    oblivex_bls_batch *client = NULL;
    expect_ok(oblivex_bls_batch_blind(key_set, inputs, input_lens, 3, NULL, 0, 0, request, sizeof request, &written,
                                       &client),
              "bls blind");
    PUBLIC(&written, sizeof written);
    respond(shares, request, written, ids, bytes, ptrs, lens);
    expect_ok(oblivex_bls_batch_finalize(client, ids, ptrs, lens, M, signatures, sizeof signatures, &written, cheaters,
                                        M, &n),
              "bls finalize");
    PUBLIC(signatures, sizeof signatures);
    oblivex_bls_batch_free(client);
    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_bls_key_set_free(key_set);
}

/* RSA-CRT with every parameter of the key secret: making the key (its
 * checks tell only accepted or refused, its size and n), and the private
 * operation on 9 ciphertexts (a full group and a tail), with one key and
 * with two handles of it mixed (the per-key batch the OpenSSL provider
 * runs). The ciphertexts are public; the results are secret. */
static void test_rsa(void) {
    enum { LEN = sizeof rsa_p, COUNT = 9 };
    static uint8_t p[LEN], q[LEN], dp[LEN], dq[LEN], qinv[LEN];
    static uint8_t c[COUNT * 2 * LEN], out[COUNT * 2 * LEN];
    memcpy(p, rsa_p, LEN);
    memcpy(q, rsa_q, LEN);
    memcpy(dp, rsa_dp, sizeof rsa_dp);
    memcpy(dq, rsa_dq, sizeof rsa_dq);
    memcpy(qinv, rsa_qinv, sizeof rsa_qinv);
    oblivex_rsa_crt_key *keys[2] = {NULL, NULL};
    for (size_t k = 0; k < 2; k++) {
        SECRET(p, LEN);
        SECRET(q, LEN);
        SECRET(dp, sizeof rsa_dp);
        SECRET(dq, sizeof rsa_dq);
        SECRET(qinv, sizeof rsa_qinv);
        expect_ok(oblivex_rsa_crt_key_new(p, LEN, q, LEN, dp, sizeof rsa_dp, dq, sizeof rsa_dq, qinv,
                                          sizeof rsa_qinv, &keys[k]),
                  "RSA key");
    }
    size_t width = oblivex_rsa_crt_key_modulus_len(keys[0]);
    fill(c, COUNT * width, 5);
    for (size_t i = 0; i < COUNT; i++) {
        c[i * width] = (uint8_t)(rsa_n[0] - 1); /* below n */
    }
    size_t written = 0;
    expect_ok(oblivex_rsa_private_batch(keys[0], c, COUNT * width, COUNT, out, sizeof out, &written),
              "RSA private batch");
    PUBLIC(out, sizeof out);
    PUBLIC(&written, sizeof written);
    const oblivex_rsa_crt_key *mixed[COUNT];
    for (size_t i = 0; i < COUNT; i++) {
        mixed[i] = keys[i & 1];
    }
    expect_ok(oblivex_rsa_private_batch_keys(mixed, c, COUNT * width, COUNT, out, sizeof out, &written),
              "RSA private batch, two key handles");
    PUBLIC(out, sizeof out);
    PUBLIC(&written, sizeof written);
    oblivex_rsa_crt_key_free(keys[0]);
    oblivex_rsa_crt_key_free(keys[1]);
}

/* Whether the arguments ask for `part`: none means every part. */
static int wanted(int argc, char **argv, const char *part) {
    if (argc < 2) {
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "all") || !strcmp(argv[i], part)) {
            return 1;
        }
    }
    return 0;
}

/* Arguments: the parts to run (modexp, rsa, oprf, threshold, bls, or ffdhe, p256,
 * ristretto255 and bls12381: the OPRF and threshold parts on that suite only);
 * none or "all" runs every part. */
int main(int argc, char **argv) {
    const char *backend = oblivex_backend_name();
    const char *forced = getenv("OBLIVEX_BACKEND");
    if (forced != NULL && strcmp(backend, "unsupported") == 0 &&
        (strcmp(forced, "avx2") == 0 || strcmp(forced, "mulx") == 0)) {
#if defined(__x86_64__)
        /* Refused on a CPU with AVX2: OBLIVEX_AVX2_PROFILE names no profile
         * (a failure, not a skip, or the check it forces would vanish). */
        if (strcmp(forced, "avx2") == 0 && __builtin_cpu_supports("avx2")) {
            const char *profile = getenv("OBLIVEX_AVX2_PROFILE");
            fprintf(stderr, "ct_secrets: OBLIVEX_BACKEND=avx2 refused on a CPU with AVX2 (OBLIVEX_AVX2_PROFILE=%s)\n",
                    profile != NULL ? profile : "(unset)");
            return 2;
        }
#endif
        printf("ct_secrets: skipped, this CPU cannot run the %s backend\n", forced);
        return 77;
    }
    if (strcmp(backend, "portable") != 0 && strcmp(backend, "mulx") != 0 && strcmp(backend, "avx2") != 0) {
        fprintf(stderr, "ct_secrets: needs OBLIVEX_BACKEND=portable, mulx or avx2 (valgrind runs no AVX-512)\n");
        return 2;
    }
    printf("ct_secrets: backend %s\n", backend);
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "ct_secrets: must run under valgrind memcheck (it checks nothing otherwise)\n");
        return 2;
    }
    static const int suites[] = {OBLIVEX_SUITE_RISTRETTO255_SHA512, OBLIVEX_SUITE_P256_SHA256,
                                 OBLIVEX_SUITE_BLS12381G1_SHA256, OBLIVEX_SUITE_FFDHE2048_SHA512};
    if (wanted(argc, argv, "modexp")) {
        test_modexp();
    }
    if (wanted(argc, argv, "rsa")) {
        test_rsa();
    }
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        int alone = (suites[i] == OBLIVEX_SUITE_FFDHE2048_SHA512 && wanted(argc, argv, "ffdhe")) ||
                    (suites[i] == OBLIVEX_SUITE_P256_SHA256 && wanted(argc, argv, "p256")) ||
                    (suites[i] == OBLIVEX_SUITE_RISTRETTO255_SHA512 && wanted(argc, argv, "ristretto255")) ||
                    (suites[i] == OBLIVEX_SUITE_BLS12381G1_SHA256 && wanted(argc, argv, "bls12381"));
        if (wanted(argc, argv, "oprf") || alone) {
            test_oprf(suites[i]);
            test_proving_modes(suites[i]);
        }
        if (wanted(argc, argv, "threshold") || alone) {
            test_threshold(suites[i]);
        }
    }
    if (wanted(argc, argv, "bls")) {
        test_bls();
    }
    if (failures) {
        fprintf(stderr, "ct_secrets: %d call(s) failed\n", failures);
        return 3;
    }
    printf("ct_secrets: done\n");
    return 0;
}
