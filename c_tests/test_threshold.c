/* The threshold protocols through the C ABI, 3-of-5: threshold OPRF,
 * threshold blind BLS signing and threshold ElGamal decryption (plaintexts
 * and KEM). Each runs honestly (outputs equal the single-key result), with
 * one malicious server (detected, named, outputs still right), with three
 * (a clean NOT_ENOUGH_RESPONSES naming all three, no output), and with a
 * named quorum holding a cheater. Key shares, commitments and key sets go
 * through their encodings; error paths return their status and write
 * nothing. Public header only. */
#include "test_util.h"

#define M 5
#define T 3
#define N 4
#define MAX_ELEM 512
#define MAX_REQ ((N + 1) * MAX_ELEM)

static const uint8_t msg_a[] = "alpha", msg_b[] = "bravo", msg_c[] = "charlie";
static const uint8_t *const inputs[N] = {msg_a, msg_b, msg_c, NULL};
static const size_t input_lens[N] = {sizeof msg_a - 1, sizeof msg_b - 1, sizeof msg_c - 1, 0};

/* How a server answers. */
enum behaviour { HONEST, OTHER_SHARE, SWAP_TWO, GARBAGE };

/* The responses of all M servers to `request`; server i (1-based) behaves
 * as `who[i - 1]`. With a quorum, only its members answer. */
struct responses {
    uint16_t ids[M];
    uint8_t bytes[M][MAX_REQ];
    const uint8_t *ptrs[M];
    size_t lens[M];
    size_t count;
};

static void answer_all(oblivex_key_share *const shares[M], const enum behaviour who[M],
                       const uint16_t *quorum, size_t quorum_len, const uint8_t *request,
                       size_t request_len, size_t elem, struct responses *out) {
    out->count = 0;
    for (uint16_t id = 1; id <= M; id++) {
        int in_quorum = quorum_len == 0;
        for (size_t q = 0; q < quorum_len; q++) {
            in_quorum |= quorum[q] == id;
        }
        if (!in_quorum) {
            continue;
        }
        size_t k = out->count++, written = 0;
        CHECK_STATUS(oblivex_threshold_server_evaluate(shares[id - 1], quorum, quorum_len, request,
                                                       request_len, out->bytes[k], MAX_REQ, &written),
                     OBLIVEX_OK, "server evaluate");
        if (who[id - 1] == OTHER_SHARE) { /* the next server's share instead */
            CHECK_STATUS(oblivex_threshold_server_evaluate(shares[id % M], NULL, 0, request, request_len,
                                                           out->bytes[k], MAX_REQ, &written),
                         OBLIVEX_OK, "cheater evaluate");
        }
        if (who[id - 1] == SWAP_TWO) {
            uint8_t tmp[MAX_ELEM];
            memcpy(tmp, out->bytes[k], elem);
            memcpy(out->bytes[k], out->bytes[k] + elem, elem);
            memcpy(out->bytes[k] + elem, tmp, elem);
        }
        if (who[id - 1] == GARBAGE) {
            memset(out->bytes[k], 0xff, request_len);
        }
        out->ids[k] = id;
        out->ptrs[k] = out->bytes[k];
        out->lens[k] = written;
    }
}

/* Server behaviours for the scenarios. */
static const enum behaviour all_honest[M] = {HONEST, HONEST, HONEST, HONEST, HONEST};
static const enum behaviour one_cheat[M] = {HONEST, OTHER_SHARE, HONEST, HONEST, HONEST};
static const enum behaviour swap_one[M] = {HONEST, HONEST, HONEST, SWAP_TWO, HONEST};
static const enum behaviour garbage_one[M] = {GARBAGE, HONEST, HONEST, HONEST, HONEST};
static const enum behaviour three_cheats[M] = {OTHER_SHARE, HONEST, SWAP_TWO, HONEST, GARBAGE};

/* Checks a finish call's cheater list. */
static void expect_cheaters(const uint16_t *got, size_t got_len, const uint16_t *want,
                            size_t want_len, const char *what) {
    CHECK(got_len == want_len, "%s: %zu cheaters named, want %zu", what, got_len, want_len);
    for (size_t i = 0; i < want_len && i < got_len; i++) {
        CHECK(got[i] == want[i], "%s: cheater %zu is %u, want %u", what, i, got[i], want[i]);
    }
}

/* ------------------------------------------------------------ sharing */

static void deal(int suite, const uint8_t *secret, size_t secret_len, oblivex_key_share *shares[M],
                 oblivex_commitments **commitments) {
    CHECK_STATUS(oblivex_threshold_deal(suite, secret, secret_len, T, M, shares, commitments),
                 OBLIVEX_OK, "deal");
    /* Through the encodings, as a server and a client would receive them. */
    uint8_t bytes[T * MAX_ELEM];
    size_t len = 0;
    for (int i = 0; i < M; i++) {
        CHECK_STATUS(oblivex_key_share_to_bytes(shares[i], bytes, sizeof bytes, &len), OBLIVEX_OK,
                     "share bytes");
        CHECK(len == oblivex_key_share_encoded_len(suite), "share length %zu", len);
        oblivex_key_share *copy = NULL;
        CHECK_STATUS(oblivex_key_share_from_bytes(suite, bytes, len, &copy), OBLIVEX_OK, "share decode");
        CHECK(oblivex_key_share_id(copy) == i + 1, "share id %u", oblivex_key_share_id(copy));
        CHECK_STATUS(oblivex_commitments_verify_share(*commitments, copy), OBLIVEX_OK, "verify share");
        oblivex_key_share_free(shares[i]);
        shares[i] = copy;
    }
    CHECK_STATUS(oblivex_commitments_to_bytes(*commitments, bytes, sizeof bytes, &len), OBLIVEX_OK,
                 "commitments bytes");
    CHECK(len == T * oblivex_suite_element_len(suite), "commitments length %zu", len);
    oblivex_commitments *copy = NULL;
    CHECK_STATUS(oblivex_commitments_from_bytes(suite, bytes, len, &copy), OBLIVEX_OK,
                 "commitments decode");
    CHECK(oblivex_commitments_threshold(copy) == T, "threshold");
    oblivex_commitments_free(*commitments);
    *commitments = copy;
}

static void test_sharing_errors(void) {
    int suite = OBLIVEX_SUITE_RISTRETTO255_SHA512;
    oblivex_key_share *shares[M] = {0};
    oblivex_commitments *commitments = NULL;
    CHECK_STATUS(oblivex_threshold_deal(suite, NULL, 0, 0, M, shares, &commitments),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "t = 0");
    CHECK_STATUS(oblivex_threshold_deal(suite, NULL, 0, M + 1, M, shares, &commitments),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "t > m");
    CHECK_STATUS(oblivex_threshold_deal(99, NULL, 0, T, M, shares, &commitments),
                 OBLIVEX_ERR_UNKNOWN_SUITE, "suite");
    CHECK_STATUS(oblivex_threshold_deal(suite, NULL, 0, T, M, NULL, &commitments),
                 OBLIVEX_ERR_NULL_POINTER, "NULL shares");
    uint8_t zero[32] = {0};
    CHECK_STATUS(oblivex_threshold_deal(suite, zero, sizeof zero, T, M, shares, &commitments),
                 OBLIVEX_ERR_INVALID_SCALAR, "zero secret");
    CHECK(shares[0] == NULL && commitments == NULL, "nothing written on error");

    deal(suite, NULL, 0, shares, &commitments);
    uint8_t bytes[64];
    size_t len = 0;
    CHECK_STATUS(oblivex_key_share_to_bytes(shares[0], bytes, sizeof bytes, &len), OBLIVEX_OK, "bytes");
    oblivex_key_share *bad = NULL;
    CHECK_STATUS(oblivex_key_share_from_bytes(suite, bytes, len - 1, &bad), OBLIVEX_ERR_BAD_LENGTH, "short");
    bytes[0] = 0;
    bytes[1] = 0;
    CHECK_STATUS(oblivex_key_share_from_bytes(suite, bytes, len, &bad), OBLIVEX_ERR_INVALID_PARTY_ID, "id 0");
    bytes[1] = 2; /* share 1's scalar under id 2 */
    CHECK_STATUS(oblivex_key_share_from_bytes(suite, bytes, len, &bad), OBLIVEX_OK, "moved share");
    CHECK_STATUS(oblivex_commitments_verify_share(commitments, bad), OBLIVEX_ERR_VERIFICATION_FAILED,
                 "moved share fails");
    oblivex_key_share_free(bad);
    uint8_t identity[3 * 32] = {0};
    oblivex_commitments *bad_c = NULL;
    CHECK_STATUS(oblivex_commitments_from_bytes(suite, identity, sizeof identity, &bad_c),
                 OBLIVEX_ERR_INVALID_ELEMENT, "identity commitment");
    CHECK_STATUS(oblivex_commitments_from_bytes(suite, identity, 31, &bad_c), OBLIVEX_ERR_BAD_LENGTH,
                 "commitments length");
    uint16_t bad_quorum[3] = {1, 1, 2};
    uint8_t request[64], response[64];
    memset(request, 0, sizeof request);
    CHECK_STATUS(oblivex_threshold_server_evaluate(shares[0], bad_quorum, 3, request, 32, response,
                                                   sizeof response, &len),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "repeated quorum id");
    uint16_t without[3] = {2, 3, 4};
    CHECK_STATUS(oblivex_threshold_server_evaluate(shares[0], without, 3, request, 32, response,
                                                   sizeof response, &len),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "quorum without the server");
    CHECK_STATUS(oblivex_threshold_server_evaluate(shares[0], NULL, 0, request, 32, response,
                                                   sizeof response, &len),
                 OBLIVEX_ERR_INVALID_ELEMENT, "identity request");
    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_commitments_free(commitments);
    oblivex_key_share_free(NULL);
    oblivex_commitments_free(NULL);
}

/* ------------------------------------------------------- threshold OPRF */

/* The single-key OPRF outputs of `inputs` under `secret`. */
static void single_key_outputs(int suite, const uint8_t *secret, size_t secret_len, uint8_t *outputs) {
    oblivex_oprf_server *server = NULL;
    CHECK_STATUS(oblivex_oprf_server_new(suite, OBLIVEX_OPRF_MODE_OPRF, secret, secret_len, &server),
                 OBLIVEX_OK, "server");
    uint8_t request[MAX_REQ], response[MAX_REQ], pk[MAX_ELEM];
    size_t request_len = 0, response_len = 0, pk_len = 0, out_len = 0;
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "pk");
    oblivex_checked_oprf_batch *client = NULL;
    CHECK_STATUS(oblivex_checked_oprf_batch_blind(suite, OBLIVEX_CHECK_COMMITTED_KEY, 0, pk, pk_len,
                                                  inputs, input_lens, N, request, sizeof request,
                                                  &request_len, &client),
                 OBLIVEX_OK, "single blind");
    CHECK_STATUS(test_evaluate(server, request, request_len, response, sizeof response,
                               &response_len),
                 OBLIVEX_OK, "single evaluate");
    CHECK_STATUS(oblivex_checked_oprf_batch_finalize(client, response, response_len, outputs, N * 64,
                                                     &out_len),
                 OBLIVEX_OK, "single finalize");
    oblivex_checked_oprf_batch_free(client);
    oblivex_oprf_server_free(server);
}

static oblivex_status oprf_round(int suite, oblivex_commitments *commitments,
                                 oblivex_key_share *const shares[M], const enum behaviour who[M],
                                 const uint16_t *quorum, size_t quorum_len, uint8_t *outputs,
                                 uint16_t *cheaters, size_t *cheaters_len) {
    size_t elem = oblivex_suite_element_len(suite);
    uint8_t request[MAX_REQ];
    size_t request_len = 0, outputs_len = 0;
    oblivex_threshold_oprf_batch *client = NULL;
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, quorum,
                                                     quorum_len, 0, request, sizeof request,
                                                     &request_len, &client),
                 OBLIVEX_OK, "threshold blind");
    CHECK(request_len == (N + 1) * elem, "request length %zu", request_len);
    static struct responses r;
    answer_all(shares, who, quorum, quorum_len, request, request_len, elem, &r);
    oblivex_status st = oblivex_threshold_oprf_batch_finalize(
        client, r.ids, r.ptrs, r.lens, r.count, outputs, N * 64, &outputs_len, cheaters, M, cheaters_len);
    if (st == OBLIVEX_OK) {
        CHECK(outputs_len == N * oblivex_suite_output_len(suite), "outputs length");
    }
    /* Spent, whatever the outcome. */
    size_t again = 0;
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, outputs,
                                                        N * 64, &again, cheaters, M, &again),
                 OBLIVEX_ERR_BATCH_USED, "finalize twice");
    oblivex_threshold_oprf_batch_free(client);
    return st;
}

static void test_threshold_oprf(int suite) {
    uint8_t secret[MAX_ELEM];
    size_t secret_len = oblivex_suite_scalar_len(suite);
    test_bytes(secret, secret_len);
    /* Both end bytes zero: below the group order whatever the byte order. */
    secret[0] = 0;
    secret[secret_len - 1] = 0;
    secret[1] |= 1;
    oblivex_key_share *shares[M];
    oblivex_commitments *commitments = NULL;
    deal(suite, secret, secret_len, shares, &commitments);
    uint8_t expected[N * 64], outputs[N * 64];
    single_key_outputs(suite, secret, secret_len, expected);
    size_t out_len = N * oblivex_suite_output_len(suite);
    uint16_t cheaters[M];
    size_t n_cheaters = 0;

    CHECK_STATUS(oprf_round(suite, commitments, shares, all_honest, NULL, 0, outputs, cheaters, &n_cheaters),
                 OBLIVEX_OK, "honest");
    CHECK(memcmp(outputs, expected, out_len) == 0, "honest outputs equal the single-key OPRF's");
    expect_cheaters(cheaters, n_cheaters, NULL, 0, "honest");

    const enum behaviour *singles[] = {one_cheat, swap_one, garbage_one};
    const uint16_t named[] = {2, 4, 1};
    for (int k = 0; k < 3; k++) {
        memset(outputs, 0, sizeof outputs);
        CHECK_STATUS(oprf_round(suite, commitments, shares, singles[k], NULL, 0, outputs, cheaters,
                                &n_cheaters),
                     OBLIVEX_OK, "one cheater");
        CHECK(memcmp(outputs, expected, out_len) == 0, "outputs right despite a cheater");
        expect_cheaters(cheaters, n_cheaters, &named[k], 1, "one cheater");
    }

    memset(outputs, 0xaa, sizeof outputs);
    CHECK_STATUS(oprf_round(suite, commitments, shares, three_cheats, NULL, 0, outputs, cheaters,
                            &n_cheaters),
                 OBLIVEX_ERR_NOT_ENOUGH_RESPONSES, "three cheaters");
    CHECK(test_all_bytes(outputs, sizeof outputs, 0xaa), "no output with three cheaters");
    const uint16_t three[] = {1, 3, 5};
    expect_cheaters(cheaters, n_cheaters, three, 3, "three cheaters");

    uint16_t quorum[T] = {2, 4, 5};
    CHECK_STATUS(oprf_round(suite, commitments, shares, all_honest, quorum, T, outputs, cheaters,
                            &n_cheaters),
                 OBLIVEX_OK, "honest quorum");
    CHECK(memcmp(outputs, expected, out_len) == 0, "quorum outputs");
    memset(outputs, 0xaa, sizeof outputs);
    CHECK_STATUS(oprf_round(suite, commitments, shares, swap_one, quorum, T, outputs, cheaters,
                            &n_cheaters),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "quorum with a cheater");
    CHECK(test_all_bytes(outputs, sizeof outputs, 0xaa), "no output from a failed quorum");
    expect_cheaters(cheaters, n_cheaters, &named[1], 1, "quorum cheater");

    /* Error paths: a bad quorum, a short output buffer, NULLs. */
    uint8_t request[MAX_REQ];
    size_t request_len = 0;
    oblivex_threshold_oprf_batch *client = NULL;
    uint16_t short_quorum[2] = {1, 2};
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, short_quorum, 2,
                                                     0, request, sizeof request, &request_len, &client),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "quorum of 2 for t = 3");
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, NULL, 0, 7,
                                                     request, sizeof request, &request_len, &client),
                 OBLIVEX_ERR_INVALID_KAPPA, "kappa 7");
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, NULL, 0, 0,
                                                     request, 10, &request_len, &client),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short request buffer");
    CHECK(client == NULL, "no client on error");
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, NULL, 0, 0,
                                                     request, sizeof request, &request_len, &client),
                 OBLIVEX_OK, "blind");
    static struct responses r;
    answer_all(shares, all_honest, NULL, 0, request, request_len, oblivex_suite_element_len(suite), &r);
    size_t len = 0;
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, outputs,
                                                        out_len - 1, &len, cheaters, M, &n_cheaters),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short outputs");
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, outputs,
                                                        out_len, &len, cheaters, 2, &n_cheaters),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short cheater list");
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, NULL, r.ptrs, r.lens, r.count, outputs,
                                                        out_len, &len, cheaters, M, &n_cheaters),
                 OBLIVEX_ERR_NULL_POINTER, "NULL ids");
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, outputs,
                                                        out_len, &len, cheaters, M, &n_cheaters),
                 OBLIVEX_OK, "the batch survived refused calls");
    CHECK(memcmp(outputs, expected, out_len) == 0, "outputs after refused calls");
    oblivex_threshold_oprf_batch_free(client);
    oblivex_threshold_oprf_batch_free(NULL);

    /* Each answer checked as it arrives, the batch unspent; the first T
     * that pass finalize. */
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, N, NULL, 0, 0,
                                                     request, sizeof request, &request_len, &client),
                 OBLIVEX_OK, "blind");
    answer_all(shares, three_cheats, NULL, 0, request, request_len, oblivex_suite_element_len(suite), &r);
    struct responses passed = {.count = 0};
    for (size_t k = 0; k < r.count; k++) {
        oblivex_status want = three_cheats[r.ids[k] - 1] == HONEST ? OBLIVEX_OK : OBLIVEX_ERR_VERIFICATION_FAILED;
        CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, r.ids[k], r.ptrs[k], r.lens[k]), want,
                     "check one answer");
    }
    /* Honest answers of servers 1..T pass (the batch was not spent by the
     * failed checks) and finalize. */
    answer_all(shares, all_honest, NULL, 0, request, request_len, oblivex_suite_element_len(suite), &r);
    for (size_t k = 0; k < T; k++) {
        CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, r.ids[k], r.ptrs[k], r.lens[k]), OBLIVEX_OK,
                     "an honest answer");
        passed.ids[k] = r.ids[k];
        passed.ptrs[k] = r.ptrs[k];
        passed.lens[k] = r.lens[k];
        passed.count++;
    }
    CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, 0, r.ptrs[0], r.lens[0]),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "check id 0");
    CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, 1, r.ptrs[0], r.lens[0] - 1),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "check a short answer");
    CHECK_STATUS(oblivex_threshold_oprf_batch_check(NULL, 1, r.ptrs[0], r.lens[0]), OBLIVEX_ERR_NULL_POINTER,
                 "check NULL batch");
    CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, 1, NULL, r.lens[0]), OBLIVEX_ERR_NULL_POINTER,
                 "check NULL answer");
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(client, passed.ids, passed.ptrs, passed.lens, passed.count,
                                                        outputs, out_len, &len, cheaters, M, &n_cheaters),
                 OBLIVEX_OK, "finalize the first T that passed");
    CHECK(memcmp(outputs, expected, out_len) == 0 && n_cheaters == 0, "outputs of the first T that passed");
    CHECK_STATUS(oblivex_threshold_oprf_batch_check(client, 1, r.ptrs[0], r.lens[0]), OBLIVEX_ERR_BATCH_USED,
                 "check after finalize");
    oblivex_threshold_oprf_batch_free(client);

    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_commitments_free(commitments);
}

/* --------------------------------------------------- threshold blind BLS */

static oblivex_status bls_round(oblivex_bls_key_set *key_set, oblivex_key_share *const shares[M],
                                const enum behaviour who[M], const uint16_t *quorum, size_t quorum_len,
                                uint8_t *signatures, uint16_t *cheaters, size_t *cheaters_len) {
    uint8_t request[MAX_REQ];
    size_t request_len = 0, sig_len = 0;
    oblivex_bls_batch *client = NULL;
    CHECK_STATUS(oblivex_bls_batch_blind(key_set, inputs, input_lens, N, quorum, quorum_len, 0, request,
                                          sizeof request, &request_len, &client),
                 OBLIVEX_OK, "bls blind");
    CHECK(request_len == (N + 1) * 48, "bls request length");
    static struct responses r;
    answer_all(shares, who, quorum, quorum_len, request, request_len, 48, &r);
    oblivex_status st = oblivex_bls_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, signatures,
                                                  N * 48, &sig_len, cheaters, M, cheaters_len);
    oblivex_bls_batch_free(client);
    return st;
}

static void test_threshold_bls(void) {
    oblivex_key_share *shares[M];
    oblivex_bls_key_set *dealt = NULL, *key_set = NULL;
    CHECK_STATUS(oblivex_bls_deal(NULL, 0, T, M, shares, &dealt), OBLIVEX_OK, "bls deal");
    static uint8_t bytes[4 + (M + 1) * 96 + T * 48];
    size_t len = 0;
    CHECK_STATUS(oblivex_bls_key_set_to_bytes(dealt, bytes, sizeof bytes, &len), OBLIVEX_OK, "key set bytes");
    CHECK(len == sizeof bytes, "key set length %zu", len);
    CHECK_STATUS(oblivex_bls_key_set_from_bytes(bytes, len, &key_set), OBLIVEX_OK, "key set decode");
    oblivex_bls_key_set *bad = NULL;
    memcpy(bytes + 4 + 96, bytes + 4 + 2 * 96, 96); /* signer 1's key := signer 2's */
    CHECK_STATUS(oblivex_bls_key_set_from_bytes(bytes, len, &bad), OBLIVEX_ERR_VERIFICATION_FAILED,
                 "inconsistent key set");
    CHECK_STATUS(oblivex_bls_key_set_from_bytes(bytes, len - 1, &bad), OBLIVEX_ERR_BAD_LENGTH, "short key set");
    CHECK(bad == NULL, "no key set on error");
    oblivex_bls_key_set_free(dealt);
    uint8_t pk[96];
    CHECK_STATUS(oblivex_bls_key_set_public_key(key_set, pk, sizeof pk, &len), OBLIVEX_OK, "pk");

    uint8_t signatures[N * 48];
    uint16_t cheaters[M];
    size_t n_cheaters = 0;
    CHECK_STATUS(bls_round(key_set, shares, all_honest, NULL, 0, signatures, cheaters, &n_cheaters),
                 OBLIVEX_OK, "honest signing");
    for (int i = 0; i < N; i++) {
        CHECK_STATUS(oblivex_bls_verify(pk, 96, inputs[i], input_lens[i], signatures + 48 * i, 48),
                     OBLIVEX_OK, "signature verifies");
    }
    CHECK_STATUS(oblivex_bls_verify(pk, 96, inputs[1], input_lens[1], signatures, 48),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "signature on another message");
    uint8_t first[48];
    memcpy(first, signatures, 48);

    CHECK_STATUS(bls_round(key_set, shares, one_cheat, NULL, 0, signatures, cheaters, &n_cheaters),
                 OBLIVEX_OK, "one cheating signer");
    const uint16_t two = 2;
    expect_cheaters(cheaters, n_cheaters, &two, 1, "bls one cheater");
    CHECK(memcmp(signatures, first, 48) == 0, "BLS signatures are deterministic");
    for (int i = 0; i < N; i++) {
        CHECK_STATUS(oblivex_bls_verify(pk, 96, inputs[i], input_lens[i], signatures + 48 * i, 48),
                     OBLIVEX_OK, "signature verifies despite a cheater");
    }
    memset(signatures, 0xaa, sizeof signatures);
    CHECK_STATUS(bls_round(key_set, shares, three_cheats, NULL, 0, signatures, cheaters, &n_cheaters),
                 OBLIVEX_ERR_NOT_ENOUGH_RESPONSES, "three cheating signers");
    const uint16_t three[] = {1, 3, 5};
    expect_cheaters(cheaters, n_cheaters, three, 3, "bls three cheaters");
    CHECK(test_all_bytes(signatures, sizeof signatures, 0xaa), "no signature with three cheaters");
    uint16_t quorum[T] = {1, 2, 3};
    CHECK_STATUS(bls_round(key_set, shares, all_honest, quorum, T, signatures, cheaters, &n_cheaters),
                 OBLIVEX_OK, "quorum signing");
    CHECK(memcmp(signatures, first, 48) == 0, "quorum signature");

    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_bls_key_set_free(key_set);
    oblivex_bls_key_set_free(NULL);
    oblivex_bls_batch_free(NULL);
}

/* ----------------------------------------------------- threshold ElGamal */

static oblivex_status elgamal_round(oblivex_commitments *commitments, oblivex_key_share *const shares[M],
                                    int target, const uint8_t *items, size_t items_len, bool blinded,
                                    const enum behaviour who[M], uint8_t *outputs, size_t outputs_cap,
                                    uint16_t *cheaters, size_t *cheaters_len, size_t elem) {
    uint8_t request[MAX_REQ];
    size_t request_len = 0, out_len = 0;
    oblivex_elgamal_batch *client = NULL;
    CHECK_STATUS(oblivex_elgamal_batch_blind(commitments, target, items, items_len, N, blinded, NULL, 0, 0,
                                            request, sizeof request, &request_len, &client),
                 OBLIVEX_OK, "elgamal client");
    static struct responses r;
    answer_all(shares, who, NULL, 0, request, request_len, elem, &r);
    oblivex_status st = oblivex_elgamal_batch_finalize(client, r.ids, r.ptrs, r.lens, r.count, outputs,
                                                      outputs_cap, &out_len, cheaters, M, cheaters_len);
    oblivex_elgamal_batch_free(client);
    return st;
}

static void test_threshold_elgamal(int suite) {
    size_t elem = oblivex_suite_element_len(suite), hash = oblivex_suite_output_len(suite), len = 0;
    oblivex_key_share *shares[M];
    oblivex_commitments *commitments = NULL;
    deal(suite, NULL, 0, shares, &commitments);
    uint8_t pk[MAX_ELEM];
    CHECK_STATUS(oblivex_commitments_public_key(commitments, pk, sizeof pk, &len), OBLIVEX_OK, "pk");

    /* KEM encapsulations, and plaintexts (fresh elements: other
     * encapsulations) with their ciphertexts. */
    static uint8_t encaps[N * MAX_ELEM], secrets[N * 64], messages[N * MAX_ELEM], ciphertexts[N * 2 * MAX_ELEM];
    uint8_t scratch[64];
    size_t slen = 0;
    for (int i = 0; i < N; i++) {
        CHECK_STATUS(oblivex_elgamal_encapsulate(suite, pk, elem, encaps + i * elem, elem, &len,
                                                 secrets + i * hash, hash, &slen),
                     OBLIVEX_OK, "encapsulate");
        CHECK_STATUS(oblivex_elgamal_encapsulate(suite, pk, elem, messages + i * elem, elem, &len, scratch,
                                                 sizeof scratch, &slen),
                     OBLIVEX_OK, "message element");
        CHECK_STATUS(oblivex_elgamal_encrypt(suite, pk, elem, messages + i * elem, elem,
                                             ciphertexts + 2 * i * elem, 2 * elem, &len),
                     OBLIVEX_OK, "encrypt");
        CHECK(len == 2 * elem, "ciphertext length");
    }
    static uint8_t outputs[N * MAX_ELEM];
    uint16_t cheaters[M];
    size_t n_cheaters = 0;
    const uint16_t two = 2, three[] = {1, 3, 5};
    for (int blinded = 0; blinded <= 1; blinded++) {
        CHECK_STATUS(elgamal_round(commitments, shares, OBLIVEX_ELGAMAL_PLAINTEXTS, ciphertexts, N * 2 * elem,
                                   blinded, one_cheat, outputs, sizeof outputs, cheaters, &n_cheaters, elem),
                     OBLIVEX_OK, "decrypt with one cheater");
        CHECK(memcmp(outputs, messages, N * elem) == 0, "plaintexts recovered (blinded %d)", blinded);
        expect_cheaters(cheaters, n_cheaters, &two, 1, "elgamal one cheater");
        CHECK_STATUS(elgamal_round(commitments, shares, OBLIVEX_ELGAMAL_KEM_SECRETS, encaps, N * elem, blinded,
                                   all_honest, outputs, sizeof outputs, cheaters, &n_cheaters, elem),
                     OBLIVEX_OK, "decapsulate");
        CHECK(memcmp(outputs, secrets, N * hash) == 0, "KEM secrets recovered (blinded %d)", blinded);
        memset(outputs, 0xaa, sizeof outputs);
        CHECK_STATUS(elgamal_round(commitments, shares, OBLIVEX_ELGAMAL_KEM_SECRETS, encaps, N * elem, blinded,
                                   three_cheats, outputs, sizeof outputs, cheaters, &n_cheaters, elem),
                     OBLIVEX_ERR_NOT_ENOUGH_RESPONSES, "three cheaters");
        expect_cheaters(cheaters, n_cheaters, three, 3, "elgamal three cheaters");
        CHECK(test_all_bytes(outputs, sizeof outputs, 0xaa), "no output with three cheaters");
    }
    /* Ciphertexts that decrypt to the identity (not valid encryptions):
     * under the key 1, (c1, c1). The batch fails with INVALID_INPUT and no
     * output, and the cheater caught on the way is still named. */
    {
        size_t scalar_len = oblivex_suite_scalar_len(suite);
        uint8_t one[MAX_ELEM] = {0};
        one[suite == OBLIVEX_SUITE_RISTRETTO255_SHA512 ? 0 : scalar_len - 1] = 1;
        oblivex_key_share *unit_shares[M];
        oblivex_commitments *unit = NULL;
        deal(suite, one, scalar_len, unit_shares, &unit);
        for (int i = 0; i < N; i++) {
            memcpy(ciphertexts + 2 * i * elem, encaps + i * elem, elem);
            memcpy(ciphertexts + (2 * i + 1) * elem, encaps + i * elem, elem);
        }
        memset(outputs, 0xaa, sizeof outputs);
        CHECK_STATUS(elgamal_round(unit, unit_shares, OBLIVEX_ELGAMAL_PLAINTEXTS, ciphertexts, N * 2 * elem, 0,
                                   one_cheat, outputs, sizeof outputs, cheaters, &n_cheaters, elem),
                     OBLIVEX_ERR_INVALID_INPUT, "identity plaintexts");
        expect_cheaters(cheaters, n_cheaters, &two, 1, "identity plaintexts still name the cheater");
        CHECK(test_all_bytes(outputs, sizeof outputs, 0xaa), "no output for identity plaintexts");
        for (int i = 0; i < M; i++) {
            oblivex_key_share_free(unit_shares[i]);
        }
        oblivex_commitments_free(unit);
    }
    /* Error paths. */
    oblivex_elgamal_batch *client = NULL;
    uint8_t request[MAX_REQ];
    CHECK_STATUS(oblivex_elgamal_batch_blind(commitments, 3, encaps, N * elem, N, false, NULL, 0, 0, request,
                                            sizeof request, &len, &client),
                 OBLIVEX_ERR_UNKNOWN_TARGET, "unknown target");
    CHECK_STATUS(oblivex_elgamal_batch_blind(commitments, OBLIVEX_ELGAMAL_PLAINTEXTS, encaps, N * elem, N, false,
                                            NULL, 0, 0, request, sizeof request, &len, &client),
                 OBLIVEX_ERR_BAD_LENGTH, "ciphertexts of the wrong length");
    static const uint8_t zeros[MAX_ELEM];
    CHECK_STATUS(oblivex_elgamal_encrypt(suite, pk, elem, zeros, elem, ciphertexts, 2 * elem, &len),
                 OBLIVEX_ERR_INVALID_ELEMENT, "identity message");
    CHECK(client == NULL, "no client on error");
    for (int i = 0; i < M; i++) {
        oblivex_key_share_free(shares[i]);
    }
    oblivex_commitments_free(commitments);
    oblivex_elgamal_batch_free(NULL);
}

int main(void) {
    test_seed("test_threshold");
    test_sharing_errors();
    test_threshold_oprf(OBLIVEX_SUITE_RISTRETTO255_SHA512);
    test_threshold_oprf(OBLIVEX_SUITE_P256_SHA256);
    test_threshold_oprf(OBLIVEX_SUITE_BLS12381G1_SHA256);
    test_threshold_bls();
    test_threshold_elgamal(OBLIVEX_SUITE_RISTRETTO255_SHA512);
    test_threshold_elgamal(OBLIVEX_SUITE_P256_SHA256);
    test_threshold_elgamal(OBLIVEX_SUITE_FFDHE2048_SHA512);
    return test_finish("test_threshold");
}
