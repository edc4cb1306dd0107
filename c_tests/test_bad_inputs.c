/* Bad input through the C ABI, as a table: every call below is made with
 * one argument broken (NULL for a pointer, a zero / off-by-one / huge
 * length, a non-canonical or identity encoding, an out-of-range scalar or
 * modulus, an unknown enum value) and must return its documented status,
 * write no output (output buffers, *written, *handle_out keep their
 * sentinels) and not crash. The number of cases run is printed. The DKG's
 * messages, which are no error of the call that takes them, are broken
 * field by field in 2-of-3 runs instead: every honest party must blame the
 * sender with the field's status. Public header only; run on every backend
 * and under ASan/UBSan. */
#include "dkg_net.h"

#define SENTINEL 0xa5
#define WRITTEN_SENTINEL ((size_t)0x5e5e5e5e)
#define HANDLE_SENTINEL ((void *)0x1)

static uint8_t out[8192];
static size_t written, written2, count_out;
static uint16_t cheaters[16];
static int cases = 0;

static void reset(void) {
    memset(out, SENTINEL, sizeof out);
    memset(cheaters, SENTINEL, sizeof cheaters);
    written = written2 = count_out = WRITTEN_SENTINEL;
}

static int untouched(void) {
    return test_all_bytes(out, sizeof out, SENTINEL) && written == WRITTEN_SENTINEL &&
           written2 == WRITTEN_SENTINEL && count_out == WRITTEN_SENTINEL &&
           test_all_bytes((const uint8_t *)cheaters, sizeof cheaters, SENTINEL);
}

/* One case: the call must return `want` and leave every output alone. */
#define CASE(want, call)                                                             \
    do {                                                                             \
        reset();                                                                     \
        oblivex_status st_ = (call);                                                 \
        CHECK_STATUS(st_, (want), #call);                                            \
        CHECK(untouched(), "an output was written on error: %s", #call);             \
        cases++;                                                                     \
    } while (0)

/* A handle-producing case: *handle_out must keep its sentinel too. */
#define HCASE(want, type, call_with_h)                                               \
    do {                                                                             \
        type *h = HANDLE_SENTINEL;                                                   \
        CASE(want, call_with_h);                                                     \
        CHECK(h == HANDLE_SENTINEL, "a handle was written on error: %s", #call_with_h); \
    } while (0)

static const int R = OBLIVEX_SUITE_RISTRETTO255_SHA512;
static const uint8_t in_a[] = "input";
static const uint8_t *const inputs[2] = {in_a, in_a};
static const size_t lens[2] = {5, 5};
static const size_t huge_lens[2] = {5, 70000};
static const uint8_t *const null_inputs[2] = {in_a, NULL};

static void test_suite_and_status(void) {
    CHECK(oblivex_suite_element_len(0) == 0 && oblivex_suite_element_len(99) == 0, "unknown suite lengths");
    CHECK(oblivex_suite_scalar_len(-1) == 0 && oblivex_suite_output_len(7) == 0 &&
              oblivex_suite_proof_len(1000) == 0,
          "unknown suite lengths");
    CHECK(oblivex_status_str(12345) != NULL && oblivex_status_str(-1) != NULL, "status strings");
    CHECK(oblivex_key_share_encoded_len(0) == 0, "key share length of unknown suite");
    CHECK(oblivex_checked_oprf_request_len(0, 0, 3) == 0 && oblivex_checked_oprf_request_len(1, 7, 3) == 0 &&
              oblivex_checked_oprf_request_len(1, 0, 0) == 0,
          "request length of bad arguments");
    cases += 8;
}

static void test_modexp(void) {
    uint8_t m[2] = {0xff, 0xfb}, even[2] = {0xff, 0xfa}, zero[2] = {0, 0}, one[1] = {1};
    uint8_t toolong[1100];
    memset(toolong, 0xff, sizeof toolong);
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mont_ctx, oblivex_mont_ctx_new(NULL, 2, &h));
    HCASE(OBLIVEX_ERR_ZERO_MODULUS, oblivex_mont_ctx, oblivex_mont_ctx_new(m, 0, &h)); /* documented */
    HCASE(OBLIVEX_ERR_EVEN_MODULUS, oblivex_mont_ctx, oblivex_mont_ctx_new(even, 2, &h));
    HCASE(OBLIVEX_ERR_ZERO_MODULUS, oblivex_mont_ctx, oblivex_mont_ctx_new(zero, 2, &h));
    HCASE(OBLIVEX_ERR_MODULUS_TOO_LARGE, oblivex_mont_ctx, oblivex_mont_ctx_new(toolong, sizeof toolong, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mont_ctx_new(m, 2, NULL));
    oblivex_mont_ctx *ctx = NULL, *ctx1 = NULL;
    CHECK_STATUS(oblivex_mont_ctx_new(m, 2, &ctx), OBLIVEX_OK, "ctx");
    CHECK_STATUS(oblivex_mont_ctx_new(one, 1, &ctx1), OBLIVEX_OK, "m = 1 is an odd modulus");
    uint8_t b[4] = {1, 2, 3, 4}, e[4] = {5, 6, 7, 8};
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch(NULL, b, 4, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch(ctx, NULL, 4, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch(ctx, b, 4, NULL, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch(ctx, b, 4, e, 4, 2, NULL, 4, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch(ctx, b, 4, e, 4, 2, out, 4, NULL));
    CASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_mod_exp_batch(ctx, b, 0, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_mod_exp_batch(ctx, b, 4, e, 0, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_mod_exp_batch(ctx, b, 4, e, 4, 0, out, 4, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch(ctx, b, 3, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch(ctx, b, 4, e, 3, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_mod_exp_batch(ctx, b, 4, e, 4, 2, out, 3, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch(ctx, b, SIZE_MAX, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch(ctx, b, 4, e, 4, SIZE_MAX / 2, out, 4, &written));
    const oblivex_mont_ctx *ctxs[2] = {ctx, NULL};
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch_multi(ctxs, b, 4, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch_multi(NULL, b, 4, e, 4, 2, out, 4, &written));
    ctxs[1] = ctx;
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch_multi(ctxs, b, 3, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_mod_exp_batch_multi(ctxs, b, 4, e, 4, 2, out, 3, &written));
    CASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_mod_exp_batch_multi(ctxs, b, 4, e, 4, 0, out, 4, &written));
    CASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_mod_exp_batch_multi_vartime(ctxs, b, 4, e, 4, 0, out, 4, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_mod_exp_batch_multi_vartime(ctxs, b, 3, e, 4, 2, out, 4, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_mod_exp_batch_multi_vartime(ctxs, b, 4, e, 4, 2, out, 3, &written));
    ctxs[1] = NULL;
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_mod_exp_batch_multi_vartime(ctxs, b, 4, e, 4, 2, out, 4, &written));
    oblivex_mont_ctx_free(ctx);
    oblivex_mont_ctx_free(ctx1);
}

/* The OPRF and checked-OPRF entry points, ristretto255. */
static void test_oprf(void) {
    uint8_t key[32] = {0}, big[32], pk[32], request[3 * 32], response[3 * 32], identity[32] = {0};
    memset(big, 0xff, sizeof big);
    key[0] = 7;
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(R, 0, identity, 32, &h));
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(R, 0, big, 32, &h));
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(R, 0, key, 31, &h));
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(R, 0, key, 33, &h));
    HCASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_oprf_server, oblivex_oprf_server_new(0, 0, key, 32, &h));
    HCASE(OBLIVEX_ERR_UNKNOWN_MODE, oblivex_oprf_server, oblivex_oprf_server_new(R, 3, key, 32, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server, oblivex_oprf_server_new(R, 0, NULL, 32, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_new(R, 0, key, 32, NULL));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server, oblivex_oprf_server_derive(R, 0, NULL, 32, NULL, 0, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_server, oblivex_oprf_server_derive(R, 0, key, 32, big, 70000, &h));
    oblivex_oprf_server *server = NULL;
    CHECK_STATUS(oblivex_oprf_server_new(R, 0, key, 32, &server), OBLIVEX_OK, "server");
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &written), OBLIVEX_OK, "pk");
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_server_public_key(server, out, 31, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_public_key(NULL, out, 32, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_secret_key(server, out, 32, NULL));
    /* the server's one step, in each mode: proof and info arguments */
    oblivex_oprf_server *voprf = NULL;
    CHECK_STATUS(oblivex_oprf_server_new(R, OBLIVEX_OPRF_MODE_VOPRF, key, 32, &voprf), OBLIVEX_OK, "voprf server");
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_evaluate(voprf, pk, 32, NULL, 0, out, 32, &written, NULL, 64,
                                                                &written2));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_evaluate(voprf, pk, 32, NULL, 0, out, 32, &written,
                                                                out + 64, 64, NULL));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_server_evaluate(voprf, pk, 32, NULL, 0, out, 32, &written,
                                                                    out + 64, 63, &written2));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_server_evaluate(voprf, pk, 32, in_a, 5, out, 32, &written, out + 64,
                                                              64, &written2));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_server_evaluate(server, pk, 32, in_a, 5, out, 32, &written, NULL, 0,
                                                              NULL));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_evaluate(server, pk, 32, NULL, 5, out, 32, &written, NULL, 0,
                                                                NULL));
    oblivex_oprf_server_free(voprf);
    /* checked client */
    oblivex_checked_oprf_batch *client = NULL;
    CHECK_STATUS(oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, inputs, lens, 2, request, sizeof request, &written,
                                                  &client),
                 OBLIVEX_OK, "checked blind");
    HCASE(OBLIVEX_ERR_UNKNOWN_CHECK, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 3, 0, pk, 32, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_KAPPA, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 129, pk, 32, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_KAPPA, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 31, pk, 32, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, inputs, lens, 0, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, inputs, huge_lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, null_inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, NULL, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 32, inputs, lens, 2, out, 95, &written, &h));
    HCASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(42, 1, 0, pk, 32, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_MISSING_PUBLIC_KEY, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, NULL, 0, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, identity, 32, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 1, 0, pk, 31, inputs, lens, 2, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_checked_oprf_batch,
          oblivex_checked_oprf_batch_blind(R, 2, 0, pk, 32, inputs, lens, 2, out, 8192, &written, &h));
    /* server evaluate */
    CASE(OBLIVEX_ERR_BAD_LENGTH, test_evaluate(server, request, 95, out, 96, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, test_evaluate(server, request, 97, out, 97, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, test_evaluate(server, request, 0, out, 96, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, test_evaluate(server, request, 96, out, 95, &written));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, test_evaluate(server, identity, 32, out, 32, &written));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, test_evaluate(server, big, 32, out, 32, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, test_evaluate(server, NULL, 96, out, 96, &written));
    CHECK_STATUS(test_evaluate(server, request, 96, response, sizeof response, &written), OBLIVEX_OK,
                 "evaluate");
    /* finalize: refusals that leave the batch usable, then a wrong answer */
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_checked_oprf_batch_finalize(client, response, 96, out, 127, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_checked_oprf_batch_finalize(NULL, response, 96, out, 128, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_checked_oprf_batch_finalize(client, NULL, 96, out, 128, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_checked_oprf_batch_finalize(client, response, 95, out, 128, &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_checked_oprf_batch_finalize(client, response, 64, out, 128, &written));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_checked_oprf_batch_finalize(client, big, 32, out, 128, &written));
    uint8_t swapped[3 * 32];
    memcpy(swapped, response + 32, 32);
    memcpy(swapped + 32, response, 32);
    memcpy(swapped + 64, response + 64, 32);
    CASE(OBLIVEX_ERR_VERIFICATION_FAILED, oblivex_checked_oprf_batch_finalize(client, swapped, 96, out, 128, &written));
    CASE(OBLIVEX_ERR_BATCH_USED, oblivex_checked_oprf_batch_finalize(client, response, 96, out, 128, &written));
    oblivex_checked_oprf_batch_free(client);
    oblivex_oprf_server_free(server);
}

/* Threshold, BLS and ElGamal entry points. */
static void test_threshold(void) {
    oblivex_key_share *shares[3];
    oblivex_commitments *commitments = NULL;
    uint8_t bytes[512], zero[96] = {0};
    memset(bytes, 0xff, sizeof bytes);
    oblivex_key_share *hs[3] = {HANDLE_SENTINEL, HANDLE_SENTINEL, HANDLE_SENTINEL};
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_commitments, oblivex_threshold_deal(R, NULL, 0, 0, 3, hs, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_commitments, oblivex_threshold_deal(R, NULL, 0, 4, 3, hs, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_commitments, oblivex_threshold_deal(R, NULL, 0, 2, 1025, hs, &h));
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_commitments, oblivex_threshold_deal(R, zero, 32, 2, 3, hs, &h));
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_commitments, oblivex_threshold_deal(R, bytes, 32, 2, 3, hs, &h));
    HCASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_commitments, oblivex_threshold_deal(9, NULL, 0, 2, 3, hs, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_threshold_deal(R, NULL, 0, 2, 3, NULL, &commitments));
    CHECK(hs[0] == HANDLE_SENTINEL && hs[2] == HANDLE_SENTINEL, "no share written on error");
    CHECK_STATUS(oblivex_threshold_deal(R, NULL, 0, 2, 3, shares, &commitments), OBLIVEX_OK, "deal");
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_key_share, oblivex_key_share_from_bytes(R, bytes, 33, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_key_share, oblivex_key_share_from_bytes(R, bytes, 35, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_key_share, oblivex_key_share_from_bytes(R, zero, 34, &h));
    bytes[0] = 0;
    bytes[1] = 1;
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_key_share, oblivex_key_share_from_bytes(R, bytes, 34, &h));
    uint8_t zero_scalar[34] = {0, 1}; /* party 1, scalar 0 */
    HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_key_share, oblivex_key_share_from_bytes(R, zero_scalar, 34, &h));
    memset(bytes, 0xff, sizeof bytes);
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_key_share, oblivex_key_share_from_bytes(R, bytes, 34, &h));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_key_share_to_bytes(shares[0], out, 33, &written));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_commitments, oblivex_commitments_from_bytes(R, bytes, 63, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_commitments, oblivex_commitments_from_bytes(R, bytes, 0, &h));
    HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_commitments, oblivex_commitments_from_bytes(R, zero, 64, &h));
    HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_commitments, oblivex_commitments_from_bytes(R, bytes, 64, &h));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_commitments_to_bytes(commitments, out, 63, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_commitments_public_key(commitments, out, 31, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_commitments_verify_share(commitments, NULL));
    {
        oblivex_key_share *p256_shares[3];
        oblivex_commitments *p256_commitments = NULL;
        CHECK_STATUS(oblivex_threshold_deal(OBLIVEX_SUITE_P256_SHA256, NULL, 0, 2, 3, p256_shares, &p256_commitments),
                     OBLIVEX_OK, "P-256 deal");
        CASE(OBLIVEX_ERR_SUITE_MISMATCH, oblivex_commitments_verify_share(commitments, p256_shares[0]));
        CASE(OBLIVEX_ERR_SUITE_MISMATCH, oblivex_commitments_verify_share(p256_commitments, shares[0]));
        for (int i = 0; i < 3; i++) {
            oblivex_key_share_free(p256_shares[i]);
        }
        oblivex_commitments_free(p256_commitments);
    }
    /* server evaluation with a share */
    uint8_t request[3 * 32];
    oblivex_threshold_oprf_batch *client = NULL;
    uint16_t q_dup[2] = {1, 1}, q_zero[2] = {0, 1}, q_ok[2] = {1, 2}, q_three[3] = {1, 2, 3};
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, lens, 2, NULL, 0, 0, request,
                                                     sizeof request, &written, &client),
                 OBLIVEX_OK, "threshold blind");
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_server_evaluate(shares[0], q_dup, 2, request, 96, out,
                                                                         96, &written));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_server_evaluate(shares[2], q_ok, 2, request, 96, out, 96,
                                                                         &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_threshold_server_evaluate(shares[0], NULL, 2, request, 96, out, 96,
                                                                     &written));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_threshold_server_evaluate(shares[0], NULL, 0, request, 95, out, 96,
                                                                   &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_threshold_server_evaluate(shares[0], NULL, 0, request, 96, out, 95,
                                                                         &written));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_oprf_batch,
          oblivex_threshold_oprf_batch_blind(commitments, inputs, lens, 2, q_zero, 2, 0, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_oprf_batch,
          oblivex_threshold_oprf_batch_blind(commitments, inputs, lens, 2, q_three, 3, 0, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_KAPPA, oblivex_threshold_oprf_batch,
          oblivex_threshold_oprf_batch_blind(commitments, inputs, lens, 2, NULL, 0, 200, out, 96, &written, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_threshold_oprf_batch,
          oblivex_threshold_oprf_batch_blind(NULL, inputs, lens, 2, NULL, 0, 0, out, 96, &written, &h));
    /* finalize refusals that keep the batch, then one that spends it */
    uint8_t answers[2][96];
    const uint8_t *ptrs[2] = {answers[0], answers[1]};
    size_t alens[2] = {96, 96};
    uint16_t ids[2] = {1, 2};
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(oblivex_threshold_server_evaluate(shares[i], NULL, 0, request, 96, answers[i], 96, &written),
                     OBLIVEX_OK, "share evaluate");
    }
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 127,
                                                                              &written, cheaters, 2, &count_out));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128,
                                                                              &written, cheaters, 1, &count_out));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_threshold_oprf_batch_finalize(client, ids, NULL, alens, 2, out, 128,
                                                                          &written, cheaters, 2, &count_out));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128,
                                                                          &written, NULL, 2, &count_out));
    ids[1] = 1;
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128,
                                                                              &written, cheaters, 2, &count_out));
    ids[1] = 0;
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128,
                                                                              &written, cheaters, 2, &count_out));
    ids[1] = 2;
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128, &written, cheaters, 2,
                                                       &count_out),
                 OBLIVEX_OK, "the refusals above left the batch usable");
    CASE(OBLIVEX_ERR_BATCH_USED, oblivex_threshold_oprf_batch_finalize(client, ids, ptrs, alens, 2, out, 128,
                                                                        &written, cheaters, 2, &count_out));
    oblivex_threshold_oprf_batch_free(client);
    /* ElGamal */
    uint8_t pk[32];
    CHECK_STATUS(oblivex_commitments_public_key(commitments, pk, sizeof pk, &written), OBLIVEX_OK, "pk");
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_elgamal_encrypt(R, pk, 32, zero, 32, out, 64, &written));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_elgamal_encrypt(R, zero, 32, pk, 32, out, 64, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_elgamal_encrypt(R, pk, 32, pk, 32, out, 63, &written));
    CASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_elgamal_encrypt(0, pk, 32, pk, 32, out, 64, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_elgamal_encapsulate(R, pk, 32, out, 32, &written, out + 64, 63,
                                                                   &written2));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_elgamal_encapsulate(R, bytes, 32, out, 32, &written, out + 64, 64,
                                                                  &written2));
    HCASE(OBLIVEX_ERR_UNKNOWN_TARGET, oblivex_elgamal_batch,
          oblivex_elgamal_batch_blind(commitments, 0, pk, 32, 1, false, NULL, 0, 0, out, 64, &written, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_elgamal_batch,
          oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_PLAINTEXTS, pk, 32, 1, false, NULL, 0, 0, out,
              64, &written, &h));
    HCASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_elgamal_batch,
          oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_KEM_SECRETS, pk, 32, 0, false, NULL, 0, 0, out,
              64, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_elgamal_batch,
          oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_KEM_SECRETS, zero, 32, 1, false, NULL, 0, 0,
              out, 64, &written, &h));
    HCASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_elgamal_batch,
          oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_KEM_SECRETS, pk, 32, 1, false, NULL, 0, 0, out,
              63, &written, &h));
    for (int i = 0; i < 3; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_commitments_free(commitments);
    /* BLS */
    oblivex_bls_key_set *hk = HANDLE_SENTINEL;
    CASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_bls_deal(NULL, 0, 3, 2, hs, &hk));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_deal(NULL, 0, 2, 3, hs, NULL));
    CASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_bls_deal(zero, 32, 2, 3, hs, &hk));
    CASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_bls_deal(bytes, 31, 2, 3, hs, &hk));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_deal(NULL, 32, 2, 3, hs, &hk));
    CHECK(hk == HANDLE_SENTINEL && hs[0] == HANDLE_SENTINEL, "no BLS handle written on error");
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_bls_key_set, oblivex_bls_key_set_from_bytes(bytes, 3, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_bls_key_set, oblivex_bls_key_set_from_bytes(zero, 96, &h));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_bls_verify(bytes, 95, in_a, 5, bytes, 48));
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_bls_verify(bytes, 96, in_a, 5, bytes, 48));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_verify(NULL, 96, in_a, 5, bytes, 48));
    /* freeing NULL is allowed everywhere */
    oblivex_key_share_free(NULL);
    oblivex_commitments_free(NULL);
    oblivex_bls_key_set_free(NULL);
    oblivex_bls_batch_free(NULL);
    oblivex_elgamal_batch_free(NULL);
    oblivex_threshold_oprf_batch_free(NULL);
    oblivex_checked_oprf_batch_free(NULL);
    oblivex_oprf_server_free(NULL);
    oblivex_oprf_batch_free(NULL);
    oblivex_mont_ctx_free(NULL);
}

/* Every suite's encodings through the server and the RFC 9497 client:
 * zero, all-ones (above every modulus and order), the FFDHE identity and
 * lengths off by one, for keys and elements; the VOPRF client's steps. */
static void test_oprf_suites(void) {
    static uint8_t zero[1024], ones[1024], unit[1024], key[1024], pk[512], blinded[2 * 512], evaluated[2 * 512],
        proof[1024];
    memset(ones, 0xff, sizeof ones);
    for (int suite = 1; suite <= 6; suite++) {
        size_t el = oblivex_suite_element_len(suite), sl = oblivex_suite_scalar_len(suite);
        size_t pl = oblivex_suite_proof_len(suite), ol = oblivex_suite_output_len(suite);
        memset(unit, 0, sizeof unit);
        unit[el - 1] = 1; /* FFDHE: the identity; the curves: not an encoding */
        HCASE(OBLIVEX_ERR_UNKNOWN_MODE, oblivex_oprf_server, oblivex_oprf_server_generate(suite, 3, &h));
        CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_generate(suite, 1, NULL));
        oblivex_oprf_server *server = NULL;
        CHECK_STATUS(oblivex_oprf_server_generate(suite, 1, &server), OBLIVEX_OK, "generate");
        CHECK_STATUS(oblivex_oprf_server_secret_key(server, key, sizeof key, &written), OBLIVEX_OK, "sk");
        CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &written), OBLIVEX_OK, "pk");
        CHECK_STATUS(oblivex_suite_check_element(suite, pk, el), OBLIVEX_OK, "a public key checks");
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_suite_check_element(suite, zero, el));
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_suite_check_element(suite, ones, el));
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_suite_check_element(suite, unit, el));
        CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_suite_check_element(suite, pk, el - 1));
        CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_suite_check_element(suite, pk, el + 1));
        CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_suite_check_element(suite, NULL, el));
        CASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_suite_check_element(0, pk, el));
        HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(suite, 1, zero, sl, &h));
        HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(suite, 1, ones, sl, &h));
        HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(suite, 1, key, sl - 1, &h));
        HCASE(OBLIVEX_ERR_INVALID_SCALAR, oblivex_oprf_server, oblivex_oprf_server_new(suite, 1, key, sl + 1, &h));
        CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_server_secret_key(server, out, sl - 1, &written));
        /* the client's blind: bad key, mode, count, info, buffer */
        oblivex_oprf_batch *batch = NULL;
        HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, zero, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, ones, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, unit, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, pk, el - 1, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_UNKNOWN_MODE, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 7, inputs, lens, 2, NULL, 0, pk, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 0, NULL, 0, pk, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, huge_lens, 2, NULL, 0, pk, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, in_a, 5, pk, el, out, 2 * el, &written, &h));
        HCASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, pk, el, out, 2 * el - 1, &written, &h));
        HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_batch,
              oblivex_oprf_batch_blind(suite, 1, null_inputs, lens, 2, NULL, 0, pk, el, out, 2 * el, &written, &h));
        CHECK_STATUS(oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, pk, el, blinded, sizeof blinded,
                                               &written, &batch),
                     OBLIVEX_OK, "blind");
        /* the server's proved evaluation: bad elements and lengths */
        memcpy(out + 4096, blinded, 2 * el);
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_server_evaluate(server, zero, el, NULL, 0, out, el,
                                                                             &written, out + 2048, pl, &written2));
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_server_evaluate(server, ones, el, NULL, 0, out, el,
                                                                             &written, out + 2048, pl, &written2));
        CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_oprf_server_evaluate(server, unit, el, NULL, 0, out, el,
                                                                             &written, out + 2048, pl, &written2));
        CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_server_evaluate(server, blinded, 2 * el - 1, NULL, 0, out,
                                                                        2 * el, &written, out + 2048, pl, &written2));
        CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_oprf_server_evaluate(server, blinded, 2 * el + 1, NULL, 0, out,
                                                                        2 * el + 1, &written, out + 2048, pl,
                                                                        &written2));
        CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_server_evaluate(server, blinded, 2 * el, NULL, 0, out,
                                                                              2 * el, &written, out + 2048, pl - 1,
                                                                              &written2));
        CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_oprf_server_evaluate(server, blinded, 2 * el, NULL, 0, out,
                                                                              2 * el - 1, &written, out + 2048, pl,
                                                                              &written2));
        CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_oprf_server_evaluate(server, blinded, 2 * el, NULL, 0, out,
                                                                          2 * el, &written, NULL, pl, &written2));
        CHECK_STATUS(oblivex_oprf_server_evaluate(server, blinded, 2 * el, NULL, 0, evaluated, sizeof evaluated,
                                                        &written, proof, sizeof proof, &written2),
                     OBLIVEX_OK, "blind evaluate");
        /* finalize: refusals that keep the batch, a wrong answer that
         * spends it, then BATCH_USED */
        CASE(OBLIVEX_ERR_NULL_POINTER,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el, NULL, pl, out, 2 * ol, &written));
        CASE(OBLIVEX_ERR_BAD_LENGTH,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el, proof, pl - 1, out, 2 * ol, &written));
        CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el, proof, pl, out, 2 * ol - 1, &written));
        CASE(OBLIVEX_ERR_INVALID_SCALAR,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el, ones, pl, out, 2 * ol, &written));
        uint8_t swapped[2 * 512];
        memcpy(swapped, evaluated + el, el);
        memcpy(swapped + el, evaluated, el);
        CASE(OBLIVEX_ERR_VERIFICATION_FAILED,
             oblivex_oprf_batch_finalize(batch, swapped, 2 * el, proof, pl, out, 2 * ol, &written));
        CASE(OBLIVEX_ERR_BATCH_USED,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el, proof, pl, out, 2 * ol, &written));
        CASE(OBLIVEX_ERR_NULL_POINTER,
             oblivex_oprf_batch_finalize(NULL, evaluated, 2 * el, proof, pl, out, 2 * ol, &written));
        oblivex_oprf_batch_free(batch);
        /* an answer of the wrong length is checked, and spends the batch */
        CHECK_STATUS(oblivex_oprf_batch_blind(suite, 1, inputs, lens, 2, NULL, 0, pk, el, blinded, sizeof blinded,
                                               &written, &batch),
                     OBLIVEX_OK, "blind again");
        CASE(OBLIVEX_ERR_BAD_LENGTH,
             oblivex_oprf_batch_finalize(batch, evaluated, 2 * el - 1, proof, pl, out, 2 * ol, &written));
        oblivex_oprf_batch_free(batch);
        oblivex_oprf_server_free(server);
    }
}

/* The blind BLS client, the ElGamal client's last step, accessors. */
static void test_bls_elgamal_clients(void) {
    oblivex_key_share *shares[3];
    oblivex_bls_key_set *key_set = NULL;
    CHECK_STATUS(oblivex_bls_deal(NULL, 0, 2, 3, shares, &key_set), OBLIVEX_OK, "bls deal");
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_bls_key_set_public_key(key_set, out, 95, &written));
    uint8_t bls_pk[96], bls_bad[96];
    CHECK_STATUS(oblivex_bls_key_set_public_key(key_set, bls_pk, sizeof bls_pk, &written), OBLIVEX_OK, "bls pk");
    CHECK_STATUS(oblivex_bls_check_public_key(bls_pk, sizeof bls_pk), OBLIVEX_OK, "a BLS public key checks");
    memcpy(bls_bad, bls_pk, sizeof bls_bad);
    bls_bad[0] &= 0x7f; /* the compression flag cleared */
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_bls_check_public_key(bls_bad, sizeof bls_bad));
    memset(bls_bad, 0, sizeof bls_bad);
    bls_bad[0] = 0xc0; /* the point at infinity */
    CASE(OBLIVEX_ERR_INVALID_ELEMENT, oblivex_bls_check_public_key(bls_bad, sizeof bls_bad));
    CASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_bls_check_public_key(bls_pk, 95));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_check_public_key(NULL, 96));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_key_set_public_key(NULL, out, 96, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_key_set_public_key(key_set, out, 96, NULL));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_bls_key_set_to_bytes(key_set, out, 100, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_key_set_to_bytes(key_set, NULL, 100, &written));
    uint16_t q_dup[2] = {2, 2};
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_batch,
          oblivex_bls_batch_blind(NULL, inputs, lens, 2, NULL, 0, 0, out, 3 * 48, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_KAPPA, oblivex_bls_batch,
          oblivex_bls_batch_blind(key_set, inputs, lens, 2, NULL, 0, 7, out, 3 * 48, &written, &h));
    HCASE(OBLIVEX_ERR_EMPTY_INPUT, oblivex_bls_batch,
          oblivex_bls_batch_blind(key_set, inputs, lens, 0, NULL, 0, 0, out, 3 * 48, &written, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_bls_batch,
          oblivex_bls_batch_blind(key_set, inputs, huge_lens, 2, NULL, 0, 0, out, 3 * 48, &written, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_bls_batch,
          oblivex_bls_batch_blind(key_set, inputs, lens, 2, q_dup, 2, 0, out, 3 * 48, &written, &h));
    HCASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_bls_batch,
          oblivex_bls_batch_blind(key_set, inputs, lens, 2, NULL, 0, 0, out, 3 * 48 - 1, &written, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_batch_blind(key_set, inputs, lens, 2, NULL, 0, 0, out, 3 * 48,
                                                            &written, NULL));
    oblivex_bls_batch *client = NULL;
    uint8_t request[3 * 48], answers[2][3 * 48];
    CHECK_STATUS(oblivex_bls_batch_blind(key_set, inputs, lens, 2, NULL, 0, 0, request, sizeof request, &written,
                                          &client),
                 OBLIVEX_OK, "bls blind");
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(oblivex_threshold_server_evaluate(shares[i], NULL, 0, request, sizeof request, answers[i],
                                                       sizeof answers[i], &written),
                     OBLIVEX_OK, "bls share");
    }
    const uint8_t *ptrs[2] = {answers[0], answers[1]};
    size_t alens[2] = {sizeof answers[0], sizeof answers[1]}, short_lens[2] = {sizeof answers[0], 0};
    uint16_t ids[2] = {1, 2};
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_bls_batch_finalize(client, ids, ptrs, alens, 2, out, 2 * 48 - 1,
                                                                 &written, cheaters, 2, &count_out));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_bls_batch_finalize(client, ids, ptrs, alens, 2, out, 2 * 48,
                                                                 &written, cheaters, 1, &count_out));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_batch_finalize(client, NULL, ptrs, alens, 2, out, 2 * 48, &written,
                                                             cheaters, 2, &count_out));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_bls_batch_finalize(NULL, ids, ptrs, alens, 2, out, 2 * 48, &written,
                                                             cheaters, 2, &count_out));
    /* One answer cut to nothing: that signer is named, one correct answer
     * is too few (the cheater list is the documented exception: written). */
    reset();
    CHECK_STATUS(oblivex_bls_batch_finalize(client, ids, ptrs, short_lens, 2, out, 2 * 48, &written, cheaters, 2,
                                           &count_out),
                 OBLIVEX_ERR_NOT_ENOUGH_RESPONSES, "one of two answers empty");
    CHECK(count_out == 1 && cheaters[0] == 2, "the empty answer's signer is named");
    CHECK(test_all_bytes(out, sizeof out, SENTINEL) && written == WRITTEN_SENTINEL, "no signature written");
    cases++;
    CASE(OBLIVEX_ERR_BATCH_USED, oblivex_bls_batch_finalize(client, ids, ptrs, alens, 2, out, 2 * 48, &written,
                                                           cheaters, 2, &count_out));
    oblivex_bls_batch_free(client);
    for (int i = 0; i < 3; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_bls_key_set_free(key_set);

    /* ElGamal: the last step's refusals */
    oblivex_key_share *eshares[3];
    oblivex_commitments *commitments = NULL;
    CHECK_STATUS(oblivex_threshold_deal(R, NULL, 0, 2, 3, eshares, &commitments), OBLIVEX_OK, "deal");
    uint8_t pk[32], encapsulation[32], secret[64], erequest[2 * 32], eanswers[2][2 * 32];
    CHECK_STATUS(oblivex_commitments_public_key(commitments, pk, sizeof pk, &written), OBLIVEX_OK, "pk");
    CHECK_STATUS(oblivex_elgamal_encapsulate(R, pk, 32, encapsulation, 32, &written, secret, 64, &written2),
                 OBLIVEX_OK, "encapsulate");
    oblivex_elgamal_batch *eclient = NULL;
    CHECK_STATUS(oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_KEM_SECRETS, encapsulation, 32, 1, true, NULL,
                                            0, 0, erequest, sizeof erequest, &written, &eclient),
                 OBLIVEX_OK, "elgamal client");
    CHECK(oblivex_elgamal_batch_output_len(eclient) == oblivex_suite_output_len(R), "KEM output width");
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(oblivex_threshold_server_evaluate(eshares[i], NULL, 0, erequest, sizeof erequest, eanswers[i],
                                                       sizeof eanswers[i], &written),
                     OBLIVEX_OK, "elgamal share");
    }
    const uint8_t *eptrs[2] = {eanswers[0], eanswers[1]};
    size_t elens[2] = {sizeof eanswers[0], sizeof eanswers[1]};
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_elgamal_batch_finalize(eclient, ids, eptrs, elens, 2, out, 63,
                                                                     &written, cheaters, 2, &count_out));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_elgamal_batch_finalize(eclient, ids, eptrs, NULL, 2, out, 64, &written,
                                                                 cheaters, 2, &count_out));
    CHECK_STATUS(oblivex_elgamal_batch_finalize(eclient, ids, eptrs, elens, 2, out, 64, &written, cheaters, 2,
                                               &count_out),
                 OBLIVEX_OK, "elgamal finish");
    CHECK(written == 64 && memcmp(out, secret, 64) == 0 && count_out == 0, "the KEM secret is recovered");
    CASE(OBLIVEX_ERR_BATCH_USED, oblivex_elgamal_batch_finalize(eclient, ids, eptrs, elens, 2, out, 64, &written,
                                                               cheaters, 2, &count_out));
    oblivex_elgamal_batch_free(eclient);
    for (int i = 0; i < 3; i++) {
        oblivex_key_share_free(eshares[i]);
    }
    oblivex_commitments_free(commitments);

    /* accessors of NULL handles, and the process-wide settings */
    CHECK(oblivex_commitments_threshold(NULL) == 0 && oblivex_key_share_id(NULL) == 0 &&
              oblivex_mont_ctx_modulus_len(NULL) == 0 && oblivex_elgamal_batch_output_len(NULL) == 0,
          "accessors of NULL return 0");
    const char *backend = oblivex_backend_name();
    CHECK(backend != NULL && (strcmp(backend, "portable") == 0 || strcmp(backend, "mulx") == 0 ||
                              strcmp(backend, "avx2") == 0 || strcmp(backend, "ifma") == 0),
          "backend name");
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", OBLIVEX_VERSION_MAJOR, OBLIVEX_VERSION_MINOR,
             OBLIVEX_VERSION_PATCH);
    CHECK(strcmp(oblivex_version(), header_version) == 0, "library version %s, header %s", oblivex_version(),
          header_version);
    oblivex_set_threads(SIZE_MAX);
    CHECK(oblivex_threads() == OBLIVEX_MAX_THREADS, "thread count clamped");
    oblivex_set_threads(1);
    CHECK(oblivex_threads() == 1, "thread count set back");
    cases += 4;
}

/* The DKG's handles: starts, outputs and steps, each refused without
 * writing anything or moving the party. */
static void test_dkg_calls(void) {
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN] = {3};
    const size_t S = sizeof session;
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 3, NULL, S, 1, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 3, session, 0, 1, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 3, session, S - 1, 1, &h));
    HCASE(OBLIVEX_ERR_UNKNOWN_SUITE, oblivex_dkg_party, oblivex_dkg_party_new(7, 2, 3, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party, oblivex_dkg_party_new(R, 0, 3, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party, oblivex_dkg_party_new(R, 1, 1, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 1025, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party, oblivex_dkg_party_new(R, 3, 4, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 3, session, S, 0, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party, oblivex_dkg_party_new(R, 2, 3, session, S, 4, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_new(R, 2, 3, session, S, 1, NULL));

    oblivex_key_share *shares[3], *p256_shares[3], *single[3];
    oblivex_key_share *other_shares[3];
    oblivex_commitments *commitments = NULL, *p256 = NULL, *t1 = NULL, *other_p256 = NULL;
    CHECK_STATUS(oblivex_threshold_deal(R, NULL, 0, 2, 3, shares, &commitments), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(OBLIVEX_SUITE_P256_SHA256, NULL, 0, 2, 3, p256_shares, &p256), OBLIVEX_OK,
                 "deal");
    CHECK_STATUS(oblivex_threshold_deal(R, NULL, 0, 1, 3, single, &t1), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(OBLIVEX_SUITE_P256_SHA256, NULL, 0, 2, 3, other_shares, &other_p256),
                 OBLIVEX_OK, "deal");
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party, oblivex_dkg_refresh_new(NULL, commitments, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party, oblivex_dkg_refresh_new(shares[0], NULL, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_SUITE_MISMATCH, oblivex_dkg_party, oblivex_dkg_refresh_new(shares[0], p256, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party, oblivex_dkg_refresh_new(single[0], t1, 2, session, S, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_dkg_party, oblivex_dkg_refresh_new(shares[0], commitments, 3, session, 33, &h));
    HCASE(OBLIVEX_ERR_SHARE_MISMATCH, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(p256_shares[0], other_p256, 3, 2, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(NULL, commitments, 3, 2, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_SUITE_MISMATCH, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(shares[0], p256, 3, 2, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(shares[0], commitments, 2, 2, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(shares[0], commitments, 3, 2, 1025, session, S, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(single[2], t1, 2, 2, 3, session, S, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_dkg_party,
          oblivex_dkg_reshare_dealer_new(shares[0], commitments, 3, 2, 3, session, 0, &h));
    HCASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party,
          oblivex_dkg_reshare_receiver_new(NULL, 3, 2, 3, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_THRESHOLD, oblivex_dkg_party,
          oblivex_dkg_reshare_receiver_new(commitments, 3, 3, 4, session, S, 1, &h));
    HCASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party,
          oblivex_dkg_reshare_receiver_new(commitments, 3, 2, 3, session, S, 4, &h));
    HCASE(OBLIVEX_ERR_BAD_LENGTH, oblivex_dkg_party,
          oblivex_dkg_reshare_receiver_new(commitments, 3, 2, 3, session, S + 1, 1, &h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_reshare_receiver_new(commitments, 3, 2, 3, session, S, 1, NULL));

    /* A started party 2 of 3: its outputs, and steps out of turn or with
     * broken arrays. */
    oblivex_dkg_party *party = NULL;
    CHECK_STATUS(oblivex_dkg_party_new(R, 2, 3, session, S, 2, &party), OBLIVEX_OK, "start");
    size_t len = oblivex_dkg_party_broadcast_len(party), pair_len = oblivex_dkg_party_share_pair_len(party);
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_broadcast(NULL, out, sizeof out, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_broadcast(party, NULL, sizeof out, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_broadcast(party, out, sizeof out, NULL));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_dkg_party_broadcast(party, out, len - 1, &written));
    CASE(OBLIVEX_ERR_BUFFER_TOO_SMALL, oblivex_dkg_party_share_pair(party, 1, out, pair_len - 1, &written));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party_share_pair(party, 0, out, sizeof out, &written));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party_share_pair(party, 2, out, sizeof out, &written));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party_share_pair(party, 4, out, sizeof out, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_share_pair(NULL, 1, out, sizeof out, &written));
    CASE(OBLIVEX_ERR_WRONG_ROUND, oblivex_dkg_party_qualified(party, (uint16_t *)out, 3, &written));
    CASE(OBLIVEX_ERR_WRONG_ROUND, oblivex_dkg_party_blame(party, (uint16_t *)out, 16, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_qualified(NULL, (uint16_t *)out, 3, &written));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_blame(NULL, (uint16_t *)out, 16, &written));
    CHECK(oblivex_dkg_party_round(NULL) == 0 && oblivex_dkg_party_broadcast_len(NULL) == 0 &&
              oblivex_dkg_party_share_pair_len(NULL) == 0 && oblivex_dkg_party_blame_len(NULL) == 0,
          "NULL accessors");

    static const uint16_t one[1] = {1}, zero_id[1] = {0}, four[1] = {4}, self[1] = {2}, twice[2] = {1, 1};
    static uint16_t many[1025];
    static const uint8_t *many_msgs[1025];
    static size_t many_lens[1025];
    for (int i = 0; i < 1025; i++) {
        many[i] = (uint16_t)(i + 1);
    }
    const uint8_t *msgs[2] = {in_a, in_a}, *null_msg[1] = {NULL};
    size_t msg_lens[2] = {5, 5}, long_len[1] = {5};
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(NULL, one, msgs, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(party, NULL, msgs, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(party, one, NULL, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(party, one, msgs, NULL, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(party, one, msgs, msg_lens, NULL, msg_lens, 1));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_round2(party, one, null_msg, long_len, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID,
         oblivex_dkg_party_round2(party, many, many_msgs, many_lens, many_msgs, many_lens, 1025));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party_round2(party, zero_id, msgs, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_INVALID_PARTY_ID, oblivex_dkg_party_round2(party, four, msgs, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_DUPLICATE_MESSAGE, oblivex_dkg_party_round2(party, self, msgs, msg_lens, msgs, msg_lens, 1));
    CASE(OBLIVEX_ERR_DUPLICATE_MESSAGE, oblivex_dkg_party_round2(party, twice, msgs, msg_lens, msgs, msg_lens, 2));
    round_fn later[4] = {oblivex_dkg_party_round3, oblivex_dkg_party_round4, oblivex_dkg_party_round5,
                         oblivex_dkg_party_round6};
    for (int k = 0; k < 4; k++) {
        CASE(OBLIVEX_ERR_WRONG_ROUND, later[k](party, one, msgs, msg_lens, 1));
        CASE(OBLIVEX_ERR_NULL_POINTER, later[k](NULL, one, msgs, msg_lens, 1));
    }
    oblivex_key_share *share_h = HANDLE_SENTINEL;
    oblivex_commitments *commitments_h = HANDLE_SENTINEL;
    CASE(OBLIVEX_ERR_WRONG_ROUND, oblivex_dkg_party_finalize(party, one, msgs, msg_lens, 1, &share_h, &commitments_h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_finalize(party, one, msgs, msg_lens, 1, NULL, &commitments_h));
    CASE(OBLIVEX_ERR_NULL_POINTER, oblivex_dkg_party_finalize(party, one, msgs, msg_lens, 1, &share_h, NULL));
    CHECK(share_h == HANDLE_SENTINEL && commitments_h == HANDLE_SENTINEL, "no handle written on error");
    CHECK(oblivex_dkg_party_round(party) == 1 && oblivex_dkg_party_broadcast_len(party) == len,
          "refused calls leave the party at round 1, its messages ready");
    oblivex_dkg_party_free(party);

    for (int i = 0; i < 3; i++) {
        oblivex_key_share_free(shares[i]);
        oblivex_key_share_free(p256_shares[i]);
        oblivex_key_share_free(other_shares[i]);
        oblivex_key_share_free(single[i]);
    }
    oblivex_commitments_free(commitments);
    oblivex_commitments_free(p256);
    oblivex_commitments_free(t1);
    oblivex_commitments_free(other_p256);
}

/* A field of a DKG message broken in transit: in `step`, party 3's
 * broadcast to everyone gets `edit` at `field` (an offset from a landmark
 * of the header or body). */
enum landmark { HEADER, SUITE_ID, PARAMETERS, SESSION_ID, SENDER, BODY };
static struct {
    enum step step;
    enum landmark landmark;
    size_t offset;
    uint8_t xor_byte;
    int set_len; /* > 0: the message's new length from BODY; < 0: cut that many bytes */
    const uint8_t *body;
    size_t body_len;
} broken;

/* The offset of `landmark` in a message whose suite id is `l` bytes. */
static size_t landmark_at(enum landmark landmark, size_t l) {
    switch (landmark) {
    case HEADER: return 0;
    case SUITE_ID: return 3;
    case PARAMETERS: return 3 + l;
    case SESSION_ID: return 3 + l + 4;
    case SENDER: return 3 + l + 36;
    default: return 3 + l + 38;
    }
}

static void break_field(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len) {
    (void)to;
    if (step != broken.step || from != 3 || *len < 3) {
        return;
    }
    size_t at = landmark_at(broken.landmark, msg[2]) + broken.offset;
    if (broken.body_len > 0) {
        memcpy(msg + at, broken.body, broken.body_len);
        *len = at + broken.body_len;
    } else if (broken.set_len < 0) {
        *len -= (size_t)-broken.set_len;
    } else {
        msg[at] ^= broken.xor_byte;
    }
}

/* One broken field: parties 1 and 2 blame party 3 alike, for its
 * broadcast of `round` with `status`; a broadcast of rounds 1 to 3 costs
 * it its place in QUAL. */
static void expect_named(enum step step, enum landmark landmark, size_t offset, uint8_t xor_byte, int set_len,
                         const uint8_t *body, size_t body_len, oblivex_status status, const char *what) {
    static struct run r;
    broken.step = step;
    broken.landmark = landmark;
    broken.offset = offset;
    broken.xor_byte = xor_byte;
    broken.set_len = set_len;
    broken.body = body;
    broken.body_len = body_len;
    run_new_key(&r, R, 2, 3, break_field);
    int round = step == COMMITMENTS ? 1 : (int)step;
    uint16_t want[OBLIVEX_DKG_BLAME_ENTRY_LEN] = {3, OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID, (uint16_t)round,
                                                  (uint16_t)status};
    uint16_t qual[3], blame[8 * OBLIVEX_DKG_BLAME_ENTRY_LEN];
    size_t qual_len = 0, blame_len = 0;
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(r.status[i], OBLIVEX_OK, what);
        CHECK_STATUS(oblivex_dkg_party_qualified(r.parties[i], qual, 3, &qual_len), OBLIVEX_OK, what);
        CHECK(qual_len == (round <= 3 ? 2u : 3u), "%s: QUAL of %zu", what, qual_len);
        CHECK_STATUS(oblivex_dkg_party_blame(r.parties[i], blame, sizeof blame / sizeof *blame, &blame_len),
                     OBLIVEX_OK, what);
        CHECK(blame_len >= OBLIVEX_DKG_BLAME_ENTRY_LEN && memcmp(blame, want, sizeof want) == 0,
              "%s: blame %u %u %u %u", what, blame[0], blame[1], blame[2], blame[3]);
    }
    cases++;
    free_run(&r);
}

static void test_dkg_encodings(void) {
    static const uint8_t one_unlisted[2] = {0, 1}, outsider[4] = {0, 1, 0, 9}, unsorted[6] = {0, 2, 0, 2, 0, 1},
                         self_accused[4] = {0, 1, 0, 3};
    /* One Feldman complaint against dealer 1 whose s is all ones (above
     * q); two revealed pairs of dealers 2 then 1 (zero scalars). */
    static uint8_t big_scalar[2 + 2 + 64] = {0, 1, 0, 1}, reveals_unsorted[2 + 2 * (2 + 64)] = {0, 2, 0, 2};
    memset(big_scalar + 4, 0xff, 32);
    reveals_unsorted[2 + 2 + 64 + 1] = 1;
    expect_named(COMMITMENTS, HEADER, 0, 0x03, 0, NULL, 0, OBLIVEX_ERR_UNSUPPORTED_VERSION, "version");
    expect_named(COMMITMENTS, HEADER, 1, 0x80, 0, NULL, 0, OBLIVEX_ERR_WRONG_MESSAGE_KIND, "kind: a refresh's");
    expect_named(COMMITMENTS, HEADER, 1, 0x06, 0, NULL, 0, OBLIVEX_ERR_WRONG_MESSAGE_KIND, "kind: another");
    expect_named(COMMITMENTS, SUITE_ID, 0, 0x01, 0, NULL, 0, OBLIVEX_ERR_SUITE_MISMATCH, "suite id");
    expect_named(COMMITMENTS, PARAMETERS, 1, 0x01, 0, NULL, 0, OBLIVEX_ERR_WRONG_PARAMETERS, "t");
    expect_named(COMMITMENTS, PARAMETERS, 3, 0x04, 0, NULL, 0, OBLIVEX_ERR_WRONG_PARAMETERS, "n");
    expect_named(COMMITMENTS, SESSION_ID, 31, 0x01, 0, NULL, 0, OBLIVEX_ERR_WRONG_SESSION, "session");
    expect_named(COMMITMENTS, SENDER, 1, 0x01, 0, NULL, 0, OBLIVEX_ERR_WRONG_SENDER, "another sender");
    expect_named(COMMITMENTS, SENDER, 1, 0x03, 0, NULL, 0, OBLIVEX_ERR_INVALID_PARTY_ID, "sender 0");
    expect_named(COMMITMENTS, BODY, 31, 0x80, 0, NULL, 0, OBLIVEX_ERR_INVALID_ELEMENT, "a non-canonical element");
    expect_named(COMMITMENTS, BODY, 0, 0, -1, NULL, 0, OBLIVEX_ERR_BAD_LENGTH, "an element cut short");
    expect_named(COMPLAINTS, BODY, 0, 0, 0, one_unlisted, sizeof one_unlisted, OBLIVEX_ERR_BAD_LENGTH,
                 "a count without its id");
    expect_named(COMPLAINTS, BODY, 0, 0, 0, outsider, sizeof outsider, OBLIVEX_ERR_INVALID_PARTY_ID,
                 "an accused outside the run");
    expect_named(COMPLAINTS, BODY, 0, 0, 0, unsorted, sizeof unsorted, OBLIVEX_ERR_UNSORTED_PARTY_IDS,
                 "accused out of order");
    expect_named(COMPLAINTS, BODY, 0, 0, 0, self_accused, sizeof self_accused, OBLIVEX_ERR_UNSORTED_PARTY_IDS,
                 "the sender accusing itself");
    expect_named(JUSTIFICATIONS, HEADER, 1, 0x01, 0, NULL, 0, OBLIVEX_ERR_WRONG_MESSAGE_KIND,
                 "a justification list as another kind");
    expect_named(FELDMAN, SENDER, 1, 0x01, 0, NULL, 0, OBLIVEX_ERR_WRONG_SENDER, "Feldman commitments' sender");
    expect_named(FELDMAN_COMPLAINTS, BODY, 0, 0, 0, big_scalar, sizeof big_scalar, OBLIVEX_ERR_INVALID_SCALAR,
                 "a scalar above q");
    expect_named(REVEALS, BODY, 0, 0, 0, reveals_unsorted, sizeof reveals_unsorted, OBLIVEX_ERR_UNSORTED_PARTY_IDS,
                 "revealed dealers out of order");
}

int main(void) {
    test_seed("test_bad_inputs");
    test_suite_and_status();
    test_modexp();
    test_oprf();
    test_threshold();
    test_oprf_suites();
    test_bls_elgamal_clients();
    test_dkg_calls();
    test_dkg_encodings();
    printf("test_bad_inputs: %d cases\n", cases);
    return test_finish("test_bad_inputs");
}
