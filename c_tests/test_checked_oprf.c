/* The malicious-server batch check through the C ABI: a full blind /
 * evaluate / verify-finalize flow per suite and check, whose outputs equal
 * the plain RFC 9497 OPRF's under the same key; cheating servers written
 * here in C (another key on one element, two answers swapped, a corrupted
 * encoding, a short answer) are detected; every error path returns its
 * status and writes nothing. Public header only. */
#include "test_util.h"

#define MAX_ELEM 512
#define MAX_REQUEST 16 /* elements: inputs + balancer + key-free padding */
#define N_INPUTS 3

static const int suites[] = {OBLIVEX_SUITE_RISTRETTO255_SHA512, OBLIVEX_SUITE_P256_SHA256,
                             OBLIVEX_SUITE_BLS12381G1_SHA256,  OBLIVEX_SUITE_FFDHE2048_SHA512,
                             OBLIVEX_SUITE_FFDHE3072_SHA512,   OBLIVEX_SUITE_FFDHE4096_SHA512};
static const int checks[] = {OBLIVEX_CHECK_COMMITTED_KEY, OBLIVEX_CHECK_KEY_FREE};

static const uint8_t in_a[] = "first input", in_b[] = "second";
static const uint8_t *const inputs[N_INPUTS] = {in_a, in_b, NULL};
static const size_t lens[N_INPUTS] = {sizeof in_a - 1, sizeof in_b - 1, 0};

/* What a (possibly cheating) server does to an honest answer. */
enum cheat { HONEST, OTHER_KEY_ON_ONE, SWAP_TWO, CORRUPT_ENCODING, TRUNCATE };

/* One checked batch against `server` (cheating as asked, with `other` as
 * its second key); returns the verify-finalize status and the outputs. */
static oblivex_status run(int suite, int check, const oblivex_oprf_server *server,
                          const oblivex_oprf_server *other, enum cheat cheat, uint8_t *outputs,
                          size_t outputs_cap, size_t *outputs_written) {
    size_t elem = oblivex_suite_element_len(suite);
    size_t count = oblivex_checked_oprf_request_len(check, 0, N_INPUTS);
    uint8_t request[MAX_REQUEST * MAX_ELEM], response[MAX_REQUEST * MAX_ELEM], pk[MAX_ELEM];
    size_t request_len = 0, response_len = 0, pk_len = 0, one_len = 0;
    CHECK(count >= N_INPUTS + 1 && count <= MAX_REQUEST, "request length %zu", count);
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "public key");
    oblivex_checked_oprf_batch *client = NULL;
    int committed = check == OBLIVEX_CHECK_COMMITTED_KEY;
    CHECK_STATUS(oblivex_checked_oprf_batch_blind(suite, check, 0, committed ? pk : NULL, committed ? pk_len : 0,
                                                  inputs, lens, N_INPUTS, request, sizeof request, &request_len,
                                                  &client),
                 OBLIVEX_OK, "blind");
    CHECK(request_len == count * elem, "request bytes %zu", request_len);
    CHECK_STATUS(test_evaluate(server, request, request_len, response, sizeof response,
                                              &response_len),
                 OBLIVEX_OK, "evaluate");
    size_t slot = test_range(0, count - 1), slot2 = (slot + 1 + test_range(0, count - 2)) % count;
    uint8_t tmp[MAX_ELEM];
    switch (cheat) {
    case HONEST:
        break;
    case OTHER_KEY_ON_ONE:
        CHECK_STATUS(test_evaluate(other, request + slot * elem, elem, response + slot * elem,
                                                  elem, &one_len),
                     OBLIVEX_OK, "other key");
        break;
    case SWAP_TWO:
        memcpy(tmp, response + slot * elem, elem);
        memcpy(response + slot * elem, response + slot2 * elem, elem);
        memcpy(response + slot2 * elem, tmp, elem);
        break;
    case CORRUPT_ENCODING:
        response[slot * elem + elem / 2] ^= 0x5a;
        break;
    case TRUNCATE:
        response_len -= elem;
        break;
    }
    memset(outputs, 0xee, outputs_cap);
    oblivex_status st = oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, outputs_cap,
                                                            outputs_written);
    /* Spent either way (once the answer is well-formed enough to check). */
    if (st == OBLIVEX_OK || st == OBLIVEX_ERR_VERIFICATION_FAILED) {
        CHECK_STATUS(oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, outputs_cap,
                                                         outputs_written),
                     OBLIVEX_ERR_BATCH_USED, "second finalize");
    }
    oblivex_checked_oprf_batch_free(client);
    return st;
}

/* The plain OPRF outputs of the same inputs under `server`'s key. */
static void plain_outputs(int suite, const oblivex_oprf_server *server, uint8_t *outputs, size_t cap) {
    uint8_t blinded[N_INPUTS * MAX_ELEM], evaluated[N_INPUTS * MAX_ELEM];
    size_t blinded_len = 0, evaluated_len = 0, written = 0;
    oblivex_oprf_batch *batch = NULL;
    CHECK_STATUS(oblivex_oprf_batch_blind(suite, OBLIVEX_OPRF_MODE_OPRF, inputs, lens, N_INPUTS, NULL, 0, NULL, 0,
                                           blinded, sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_OK, "plain blind");
    CHECK_STATUS(test_evaluate(server, blinded, blinded_len, evaluated, sizeof evaluated,
                                              &evaluated_len),
                 OBLIVEX_OK, "plain evaluate");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, evaluated_len, NULL, 0, outputs, cap, &written),
                 OBLIVEX_OK, "plain finalize");
    oblivex_oprf_batch_free(batch);
}

static void every_suite(void) {
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        int suite = suites[s];
        size_t out_len = oblivex_suite_output_len(suite);
        oblivex_oprf_server *server = NULL, *other = NULL;
        CHECK_STATUS(oblivex_oprf_server_generate(suite, OBLIVEX_OPRF_MODE_OPRF, &server), OBLIVEX_OK, "server");
        CHECK_STATUS(oblivex_oprf_server_generate(suite, OBLIVEX_OPRF_MODE_OPRF, &other), OBLIVEX_OK, "other");
        uint8_t expected[N_INPUTS * 64], outputs[N_INPUTS * 64];
        size_t written = 0;
        plain_outputs(suite, server, expected, sizeof expected);
        for (size_t c = 0; c < sizeof checks / sizeof checks[0]; c++) {
            int check = checks[c];
            CHECK_STATUS(run(suite, check, server, other, HONEST, outputs, sizeof outputs, &written), OBLIVEX_OK,
                         "honest");
            CHECK(written == N_INPUTS * out_len, "suite %d: %zu output bytes", suite, written);
            CHECK(memcmp(outputs, expected, N_INPUTS * out_len) == 0, "suite %d check %d: outputs", suite, check);
            CHECK_STATUS(run(suite, check, server, other, OTHER_KEY_ON_ONE, outputs, sizeof outputs, &written),
                         OBLIVEX_ERR_VERIFICATION_FAILED, "another key on one element");
            CHECK(test_all_bytes(outputs, sizeof outputs, 0xee), "nothing written after a detected cheat");
            CHECK_STATUS(run(suite, check, server, other, SWAP_TWO, outputs, sizeof outputs, &written),
                         OBLIVEX_ERR_VERIFICATION_FAILED, "two answers swapped");
            oblivex_status corrupt = run(suite, check, server, other, CORRUPT_ENCODING, outputs, sizeof outputs,
                                         &written);
            CHECK(corrupt == OBLIVEX_ERR_INVALID_ELEMENT || corrupt == OBLIVEX_ERR_VERIFICATION_FAILED,
                  "corrupted encoding: %s", oblivex_status_str(corrupt));
            CHECK_STATUS(run(suite, check, server, other, TRUNCATE, outputs, sizeof outputs, &written),
                         OBLIVEX_ERR_BAD_LENGTH, "truncated answer");
        }
        oblivex_oprf_server_free(server);
        oblivex_oprf_server_free(other);
    }
}

/* A server using another key for the whole batch: the committed-key check
 * sees it; the key-free check, by design, does not. */
static void wrong_key_for_the_whole_batch(void) {
    int suite = OBLIVEX_SUITE_RISTRETTO255_SHA512;
    oblivex_oprf_server *server = NULL, *impostor = NULL;
    CHECK_STATUS(oblivex_oprf_server_generate(suite, OBLIVEX_OPRF_MODE_OPRF, &server), OBLIVEX_OK, "server");
    CHECK_STATUS(oblivex_oprf_server_generate(suite, OBLIVEX_OPRF_MODE_OPRF, &impostor), OBLIVEX_OK, "impostor");
    uint8_t pk[32], request[MAX_REQUEST * 32], response[MAX_REQUEST * 32], outputs[N_INPUTS * 64];
    size_t pk_len = 0, request_len = 0, response_len = 0, written = 0;
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "public key");
    for (size_t c = 0; c < 2; c++) {
        oblivex_checked_oprf_batch *client = NULL;
        int committed = checks[c] == OBLIVEX_CHECK_COMMITTED_KEY;
        CHECK_STATUS(oblivex_checked_oprf_batch_blind(suite, checks[c], 0, committed ? pk : NULL,
                                                      committed ? pk_len : 0, inputs, lens, N_INPUTS, request,
                                                      sizeof request, &request_len, &client),
                     OBLIVEX_OK, "blind");
        CHECK_STATUS(test_evaluate(impostor, request, request_len, response, sizeof response,
                                                  &response_len),
                     OBLIVEX_OK, "impostor evaluate");
        oblivex_status st =
            oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, sizeof outputs, &written);
        CHECK_STATUS(st, checks[c] == OBLIVEX_CHECK_COMMITTED_KEY ? OBLIVEX_ERR_VERIFICATION_FAILED : OBLIVEX_OK,
                     "impostor key");
        oblivex_checked_oprf_batch_free(client);
    }
    oblivex_oprf_server_free(server);
    oblivex_oprf_server_free(impostor);
}

static void error_paths(void) {
    int suite = OBLIVEX_SUITE_RISTRETTO255_SHA512;
    uint8_t request[MAX_REQUEST * 32], response[MAX_REQUEST * 32], pk[32], outputs[N_INPUTS * 64];
    size_t request_len = 0, response_len = 0, pk_len = 0, written = 0;
    oblivex_checked_oprf_batch *client = NULL;

    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_COMMITTED_KEY, 0, 5) == 6, "committed length");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_KEY_FREE, 64, 1) == 5, "key-free padding (kappa 64)");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_KEY_FREE, 128, 1) == 3, "key-free padding (kappa 128)");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_KEY_FREE, 32, 1) == 9, "key-free padding (kappa 32)");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_KEY_FREE, 0, 10) == 11, "no padding needed");
    CHECK(oblivex_checked_oprf_request_len(9, 0, 5) == 0, "unknown check");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_COMMITTED_KEY, 31, 5) == 0, "kappa too small");
    CHECK(oblivex_checked_oprf_request_len(OBLIVEX_CHECK_COMMITTED_KEY, 0, 0) == 0, "no inputs");

    oblivex_oprf_server *server = NULL;
    CHECK_STATUS(oblivex_oprf_server_generate(suite, OBLIVEX_OPRF_MODE_OPRF, &server), OBLIVEX_OK, "server");
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "public key");
#define BLIND(suite_, check_, kappa_, key_, key_len_, count_, cap_)                                           \
    oblivex_checked_oprf_batch_blind(suite_, check_, kappa_, key_, key_len_, inputs, lens, count_, request, cap_, \
                                     &request_len, &client)
    const int committed = OBLIVEX_CHECK_COMMITTED_KEY;
    CHECK_STATUS(BLIND(99, committed, 0, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_ERR_UNKNOWN_SUITE,
                 "unknown suite");
    CHECK_STATUS(BLIND(suite, 7, 0, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_ERR_UNKNOWN_CHECK, "unknown check");
    CHECK_STATUS(BLIND(suite, committed, 16, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_ERR_INVALID_KAPPA,
                 "kappa 16");
    CHECK_STATUS(BLIND(suite, committed, 129, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_ERR_INVALID_KAPPA,
                 "kappa 129");
    CHECK_STATUS(BLIND(suite, committed, 0, pk, pk_len, 0, sizeof request), OBLIVEX_ERR_EMPTY_INPUT, "no inputs");
    CHECK_STATUS(BLIND(suite, committed, 0, pk, pk_len, N_INPUTS, N_INPUTS * 32), OBLIVEX_ERR_BUFFER_TOO_SMALL,
                 "room for the inputs but not the balancer");
    CHECK_STATUS(BLIND(suite, committed, 0, NULL, 0, N_INPUTS, sizeof request), OBLIVEX_ERR_MISSING_PUBLIC_KEY,
                 "committed-key check without a key");
    uint8_t bad_pk[32] = {0};
    CHECK_STATUS(BLIND(suite, committed, 0, bad_pk, sizeof bad_pk, N_INPUTS, sizeof request),
                 OBLIVEX_ERR_INVALID_ELEMENT, "identity as public key");
    CHECK_STATUS(BLIND(suite, committed, 0, pk, pk_len - 1, N_INPUTS, sizeof request), OBLIVEX_ERR_INVALID_ELEMENT,
                 "short public key");
    CHECK_STATUS(BLIND(suite, OBLIVEX_CHECK_KEY_FREE, 0, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_ERR_BAD_LENGTH,
                 "a public key with the key-free check");
    CHECK(client == NULL, "no handle on error");
    CHECK_STATUS(oblivex_checked_oprf_batch_blind(suite, committed, 0, pk, pk_len, NULL, lens, N_INPUTS, request,
                                                  sizeof request, &request_len, &client),
                 OBLIVEX_ERR_NULL_POINTER, "NULL inputs");
    CHECK_STATUS(oblivex_checked_oprf_batch_blind(suite, committed, 0, pk, pk_len, inputs, lens, N_INPUTS, request,
                                                  sizeof request, &request_len, NULL),
                 OBLIVEX_ERR_NULL_POINTER, "NULL handle out");

    CHECK_STATUS(BLIND(suite, committed, 128, pk, pk_len, N_INPUTS, sizeof request), OBLIVEX_OK, "blind");
    CHECK_STATUS(test_evaluate(server, request, request_len, response, request_len - 1, &response_len),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "evaluate into a short buffer");
    CHECK_STATUS(test_evaluate(server, request, request_len - 1, response, sizeof response, &response_len),
                 OBLIVEX_ERR_BAD_LENGTH, "evaluate a partial element");
    CHECK_STATUS(test_evaluate(server, request, 0, response, sizeof response, &response_len),
                 OBLIVEX_ERR_BAD_LENGTH, "evaluate nothing");
    CHECK_STATUS(test_evaluate(server, request, request_len, response, sizeof response, &response_len), OBLIVEX_OK,
                 "evaluate");
    memset(outputs, 0xee, sizeof outputs);
    /* Refusals that do not spend the batch. */
    CHECK_STATUS(oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, N_INPUTS * 64 - 1,
                                                     &written),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short outputs");
    CHECK_STATUS(oblivex_checked_oprf_batch_finalize(client, response, response_len - 32, outputs, sizeof outputs,
                                                     &written),
                 OBLIVEX_ERR_BAD_LENGTH, "an element short");
    CHECK(test_all_bytes(outputs, sizeof outputs, 0xee), "nothing written on refusal");
    CHECK_STATUS(oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, sizeof outputs, &written),
                 OBLIVEX_OK, "finalize after refusals");
    CHECK_STATUS(oblivex_checked_oprf_batch_finalize(NULL, response, response_len, outputs, sizeof outputs, &written),
                 OBLIVEX_ERR_NULL_POINTER, "NULL batch");
    oblivex_checked_oprf_batch_free(client);
    oblivex_checked_oprf_batch_free(NULL);
    oblivex_oprf_server_free(server);
#undef BLIND
}

int main(void) {
    test_seed("test_checked_oprf");
    every_suite();
    wrong_key_for_the_whole_batch();
    error_paths();
    return test_finish("test_checked_oprf");
}
