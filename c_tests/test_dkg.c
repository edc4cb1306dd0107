/* The distributed key generation through the C ABI. On ristretto255,
 * 3 of 5: an honest run whose shares and commitments go unchanged to the
 * threshold OPRF (outputs equal to the single-key OPRF under the key three
 * shares reconstruct, here only), a refresh of it and a resharing of it to
 * 2 of 3 other parties (same public key, same outputs), a cheater whose
 * malformed broadcast every honest party names with the same status, an
 * old party that deals a share of another key named by every new party,
 * and the statuses of bad calls (each leaving the party where it was). On
 * P-256, BLS12-381 G1 and FFDHE2048, 2 of 3: an honest run whose shares
 * give one threshold OPRF output whichever two answer. Public header only;
 * OpenSSL's BIGNUM does the test's own key reconstruction. */
#include <openssl/bn.h>

#include "dkg_net.h"

#define T 3
#define N 5
#define INPUTS 2
#define SUITE OBLIVEX_SUITE_RISTRETTO255_SHA512
#define SCALAR_LEN 32
#define MAX_ELEM 256
#define MAX_REQ ((INPUTS + 1) * MAX_ELEM)

static const uint8_t msg_a[] = "alpha", msg_b[] = "bravo";
static const uint8_t *const inputs[INPUTS] = {msg_a, msg_b};
static const size_t input_lens[INPUTS] = {sizeof msg_a - 1, sizeof msg_b - 1};
static const uint16_t all[MAX_N] = {1, 2, 3, 4, 5}, no_blame[1] = {0};

/* Party 5 cuts its round-1 commitments short for everyone. */
static void truncated_commitments(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len) {
    (void)to;
    (void)msg;
    if (step == COMMITMENTS && from == 5) {
        *len -= 1;
    }
}

/* Parties `from`..`to` (1-based) finalized with one key: their shares
 * match, their commitments, QUAL and blame lists are the same. */
static void expect_agreement(const struct run *r, int from, int to, const uint16_t *qual, size_t qual_len,
                             const uint16_t *blame, size_t blame_len) {
    static uint8_t first[MAX_N * MAX_ELEM], bytes[MAX_N * MAX_ELEM];
    size_t first_len = 0, len = 0;
    for (int i = from - 1; i < to; i++) {
        CHECK_STATUS(r->status[i], OBLIVEX_OK, "finalize");
        if (r->status[i] != OBLIVEX_OK) {
            continue;
        }
        CHECK(oblivex_dkg_party_round(r->parties[i]) == 7, "finalized");
        CHECK(oblivex_key_share_id(r->shares[i]) == i + 1, "share id");
        CHECK_STATUS(oblivex_commitments_verify_share(r->commitments[i], r->shares[i]), OBLIVEX_OK,
                     "share matches");
        CHECK_STATUS(oblivex_commitments_to_bytes(r->commitments[i], bytes, sizeof bytes, &len), OBLIVEX_OK,
                     "bytes");
        if (i == from - 1) {
            memcpy(first, bytes, len);
            first_len = len;
        }
        CHECK(len == first_len && memcmp(bytes, first, len) == 0, "party %d: the same commitments", i + 1);
        uint16_t got[MAX_N * OBLIVEX_DKG_BLAME_ENTRY_LEN * 2];
        size_t got_len = 0;
        CHECK_STATUS(oblivex_dkg_party_qualified(r->parties[i], got, MAX_N, &got_len), OBLIVEX_OK, "qualified");
        CHECK(got_len == qual_len && memcmp(got, qual, qual_len * sizeof *got) == 0, "party %d: QUAL", i + 1);
        CHECK(oblivex_dkg_party_blame_len(r->parties[i]) == blame_len, "party %d: blame length %zu", i + 1,
              oblivex_dkg_party_blame_len(r->parties[i]));
        CHECK_STATUS(oblivex_dkg_party_blame(r->parties[i], got, sizeof got / sizeof *got, &got_len), OBLIVEX_OK,
                     "blame");
        CHECK(got_len == blame_len && memcmp(got, blame, blame_len * sizeof *got) == 0, "party %d: blame",
              i + 1);
    }
}

/* The public keys of two sets of commitments are the same. */
static void expect_same_public_key(const oblivex_commitments *a, const oblivex_commitments *b, const char *what) {
    uint8_t pk_a[MAX_ELEM], pk_b[MAX_ELEM];
    size_t len_a = 0, len_b = 0;
    CHECK_STATUS(oblivex_commitments_public_key(a, pk_a, sizeof pk_a, &len_a), OBLIVEX_OK, "pk");
    CHECK_STATUS(oblivex_commitments_public_key(b, pk_b, sizeof pk_b, &len_b), OBLIVEX_OK, "pk");
    CHECK(len_a == len_b && memcmp(pk_a, pk_b, len_a) == 0, "%s", what);
}

/* The key shares 1, 2 and 3 reconstruct (Lagrange at 0: 3, -3, 1), in the
 * suite's little-endian encoding. A test's privilege: no party can. */
static void reconstruct_key(oblivex_key_share *const shares[MAX_N], uint8_t key[SCALAR_LEN]) {
    static const int lambda[3] = {3, -3, 1};
    BIGNUM *q = NULL, *acc = BN_new();
    BN_CTX *ctx = BN_CTX_new();
    BN_hex2bn(&q, "1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed");
    BN_zero(acc);
    for (int i = 0; i < 3; i++) {
        uint8_t bytes[2 + SCALAR_LEN];
        size_t len = 0;
        CHECK_STATUS(oblivex_key_share_to_bytes(shares[i], bytes, sizeof bytes, &len), OBLIVEX_OK, "share bytes");
        BIGNUM *k = BN_lebin2bn(bytes + 2, SCALAR_LEN, NULL);
        BN_mul_word(k, (BN_ULONG)(lambda[i] < 0 ? -lambda[i] : lambda[i]));
        if (lambda[i] < 0) {
            BN_sub(acc, acc, k);
        } else {
            BN_add(acc, acc, k);
        }
        BN_clear_free(k);
        memset(bytes, 0, sizeof bytes);
    }
    BN_nnmod(acc, acc, q, ctx);
    CHECK(BN_bn2lebinpad(acc, key, SCALAR_LEN) == SCALAR_LEN, "key encoding");
    BN_clear_free(acc);
    BN_free(q);
    BN_CTX_free(ctx);
}

/* The single-key OPRF outputs of `inputs` under `key`. */
static void single_key_outputs(const uint8_t key[SCALAR_LEN], uint8_t *outputs) {
    oblivex_oprf_server *server = NULL;
    CHECK_STATUS(oblivex_oprf_server_new(SUITE, OBLIVEX_OPRF_MODE_OPRF, key, SCALAR_LEN, &server), OBLIVEX_OK,
                 "server");
    uint8_t blinded[MAX_REQ], evaluated[MAX_REQ];
    size_t blinded_len = 0, evaluated_len = 0, outputs_len = 0;
    oblivex_oprf_batch *batch = NULL;
    CHECK_STATUS(oblivex_oprf_batch_blind(SUITE, OBLIVEX_OPRF_MODE_OPRF, inputs, input_lens, INPUTS, NULL, 0, NULL,
                                          0, blinded, sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_OK, "single blind");
    CHECK_STATUS(test_evaluate(server, blinded, blinded_len, evaluated, sizeof evaluated, &evaluated_len),
                 OBLIVEX_OK, "single evaluate");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, evaluated_len, NULL, 0, outputs, INPUTS * 64,
                                             &outputs_len),
                 OBLIVEX_OK, "single finalize");
    oblivex_oprf_batch_free(batch);
    oblivex_oprf_server_free(server);
}

/* The threshold OPRF outputs with the `count` shares given (any ids),
 * checked against `commitments`; no server cheats. */
static void threshold_outputs(oblivex_commitments *commitments, oblivex_key_share *const *shares, size_t count,
                              uint8_t *outputs) {
    uint8_t request[MAX_REQ];
    static uint8_t responses[MAX_N][MAX_REQ];
    const uint8_t *ptrs[MAX_N];
    size_t request_len = 0, lens[MAX_N], outputs_len = 0, cheaters_len = 0;
    uint16_t ids[MAX_N], cheaters[MAX_N];
    oblivex_threshold_oprf_batch *batch = NULL;
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, INPUTS, NULL, 0, 0, request,
                                                     sizeof request, &request_len, &batch),
                 OBLIVEX_OK, "threshold blind");
    for (size_t i = 0; i < count; i++) {
        CHECK_STATUS(oblivex_threshold_server_evaluate(shares[i], NULL, 0, request, request_len, responses[i],
                                                       MAX_REQ, &lens[i]),
                     OBLIVEX_OK, "server evaluate");
        ids[i] = oblivex_key_share_id(shares[i]);
        ptrs[i] = responses[i];
    }
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(batch, ids, ptrs, lens, count, outputs, INPUTS * 64,
                                                        &outputs_len, cheaters, MAX_N, &cheaters_len),
                 OBLIVEX_OK, "threshold finalize");
    CHECK(cheaters_len == 0, "no cheater");
    oblivex_threshold_oprf_batch_free(batch);
}

/* The threshold OPRF outputs of `r`'s shares equal `expected`. */
static void expect_outputs(const struct run *r, const uint8_t *expected, const char *what) {
    uint8_t outputs[INPUTS * 64] = {0};
    threshold_outputs(r->commitments[0], r->shares, (size_t)r->n, outputs);
    CHECK(memcmp(outputs, expected, INPUTS * oblivex_suite_output_len(r->suite)) == 0, "%s", what);
}

static void test_honest_run_refresh_and_reshare(void) {
    static struct run dkg, refresh, reshare;
    run_new_key(&dkg, SUITE, T, N, honest);
    expect_agreement(&dkg, 1, N, all, N, no_blame, 0);

    uint8_t key[SCALAR_LEN], expected[INPUTS * 64];
    reconstruct_key(dkg.shares, key);
    single_key_outputs(key, expected);
    memset(key, 0, sizeof key);
    expect_outputs(&dkg, expected, "threshold OPRF on the DKG's output = single-key OPRF");

    /* A refresh: new shares and commitments, the same public key and
     * outputs. */
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN];
    test_bytes(session, sizeof session);
    refresh.suite = SUITE;
    refresh.n = N;
    for (int i = 0; i < N; i++) {
        refresh.parties[i] = NULL;
        CHECK_STATUS(oblivex_dkg_refresh_new(dkg.shares[i], dkg.commitments[i], N, session, sizeof session,
                                             &refresh.parties[i]),
                     OBLIVEX_OK, "refresh start");
    }
    run_rounds(&refresh, honest);
    expect_agreement(&refresh, 1, N, all, N, no_blame, 0);
    expect_same_public_key(dkg.commitments[0], refresh.commitments[0], "refresh keeps the public key");
    CHECK_STATUS(oblivex_commitments_verify_share(refresh.commitments[0], dkg.shares[0]),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "an old share fails the new commitments");
    expect_outputs(&refresh, expected, "refreshed shares give the same outputs");

    /* A resharing of the refreshed key to 2 of 3 new parties: the same
     * public key and outputs, commitments of the new threshold. */
    run_reshare(&reshare, &refresh, 2, 3, honest, NULL);
    expect_agreement(&reshare, 1, 3, all, N, no_blame, 0);
    CHECK(oblivex_commitments_threshold(reshare.commitments[0]) == 2, "the new threshold");
    expect_same_public_key(dkg.commitments[0], reshare.commitments[0], "resharing keeps the public key");
    CHECK_STATUS(oblivex_commitments_verify_share(reshare.commitments[0], refresh.shares[0]),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "an old share fails the new commitments");
    expect_outputs(&reshare, expected, "reshared shares give the same outputs");
    free_run(&reshare);
    free_run(&refresh);
    free_run(&dkg);
}

static void test_cheater_named(void) {
    static struct run dkg;
    run_new_key(&dkg, SUITE, T, N, truncated_commitments);
    /* Parties 1 to 4 agree: 5 is out, for a round-1 broadcast that does
     * not decode (a length that does not fit its layout). */
    const uint16_t blame[OBLIVEX_DKG_BLAME_ENTRY_LEN] = {5, OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID, 1,
                                                         (uint16_t)OBLIVEX_ERR_BAD_LENGTH};
    expect_agreement(&dkg, 1, 4, all, 4, blame, OBLIVEX_DKG_BLAME_ENTRY_LEN);
    free_run(&dkg);
}

static void test_cheating_old_party_named(void) {
    static struct run dkg, cheating, reshare;
    run_new_key(&dkg, SUITE, T, N, honest);
    uint8_t expected[INPUTS * 64] = {0};
    threshold_outputs(dkg.commitments[0], dkg.shares, N, expected);
    /* Old party 5 deals its share of another key (which passes that key's
     * commitments, so it can start) instead of its own: its messages name
     * other old commitments, so every new party disqualifies it, and it
     * learns of the mismatch from their complaints. */
    oblivex_key_share *other[N];
    oblivex_commitments *other_commitments = NULL;
    CHECK_STATUS(oblivex_threshold_deal(SUITE, NULL, 0, T, N, other, &other_commitments), OBLIVEX_OK, "deal");
    cheating = dkg;
    cheating.shares[N - 1] = other[N - 1];
    cheating.commitments[N - 1] = other_commitments;
    const oblivex_status dealer_status[N] = {OBLIVEX_OK, OBLIVEX_OK, OBLIVEX_OK, OBLIVEX_OK,
                                             OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH};
    run_reshare(&reshare, &cheating, 2, 3, honest, dealer_status);
    /* Every new party names it (its round-1 broadcast names other old
     * commitments; its justifications never come), leaves it out of QUAL,
     * and keeps the key. */
    const uint16_t blame[2 * OBLIVEX_DKG_BLAME_ENTRY_LEN] = {
        5, OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID, 1, (uint16_t)OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH,
        5, OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING, 3, 0};
    expect_agreement(&reshare, 1, 3, all, 4, blame, 2 * OBLIVEX_DKG_BLAME_ENTRY_LEN);
    expect_same_public_key(dkg.commitments[0], reshare.commitments[0], "the key stays");
    expect_outputs(&reshare, expected, "the outputs stay");
    free_run(&reshare);
    free_run(&dkg);
    for (int i = 0; i < N; i++) {
        oblivex_key_share_free(other[i]);
    }
    oblivex_commitments_free(other_commitments);
}

/* A 2-of-3 run on `suite`: the parties agree, and any two shares give the
 * threshold OPRF outputs all three give. */
static void test_suite(oblivex_suite suite, const char *name) {
    static struct run dkg;
    run_new_key(&dkg, suite, 2, 3, honest);
    expect_agreement(&dkg, 1, 3, all, 3, no_blame, 0);
    uint8_t expected[INPUTS * 64] = {0}, outputs[INPUTS * 64] = {0};
    size_t len = INPUTS * oblivex_suite_output_len(suite);
    threshold_outputs(dkg.commitments[0], dkg.shares, 3, expected);
    threshold_outputs(dkg.commitments[0], dkg.shares, 2, outputs);
    CHECK(memcmp(outputs, expected, len) == 0, "%s: parties 1 and 2 give the outputs", name);
    threshold_outputs(dkg.commitments[0], dkg.shares + 1, 2, outputs);
    CHECK(memcmp(outputs, expected, len) == 0, "%s: parties 2 and 3 give the outputs", name);
    free_run(&dkg);
}

static void test_bad_calls(void) {
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN] = {7};
    oblivex_dkg_party *party = NULL;
    CHECK_STATUS(oblivex_dkg_party_new(99, T, N, session, sizeof session, 1, &party), OBLIVEX_ERR_UNKNOWN_SUITE,
                 "suite");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session - 1, 1, &party),
                 OBLIVEX_ERR_BAD_LENGTH, "session length");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, 4, session, sizeof session, 1, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "n < 2t - 1");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, 0, N, session, sizeof session, 1, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "t = 0");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session, 0, &party),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "id 0");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session, N + 1, &party),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "id above n");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, NULL, 32, 1, &party), OBLIVEX_ERR_NULL_POINTER, "NULL session");
    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session, 1, NULL), OBLIVEX_ERR_NULL_POINTER,
                 "NULL out");
    CHECK(party == NULL, "nothing written on error");

    CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session, 2, &party), OBLIVEX_OK, "start");
    uint8_t msg[MAX_MSG];
    size_t len = 0;
    CHECK_STATUS(oblivex_dkg_party_share_pair(party, 2, msg, sizeof msg, &len), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "a pair for itself");
    CHECK_STATUS(oblivex_dkg_party_share_pair(party, N + 1, msg, sizeof msg, &len), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "a pair for nobody");
    CHECK_STATUS(oblivex_dkg_party_share_pair(party, 1, msg, 10, &len), OBLIVEX_ERR_BUFFER_TOO_SMALL, "short buffer");
    CHECK_STATUS(oblivex_dkg_party_broadcast(party, msg, oblivex_dkg_party_broadcast_len(party) - 1, &len),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short broadcast buffer");
    CHECK_STATUS(oblivex_dkg_party_broadcast(party, NULL, sizeof msg, &len), OBLIVEX_ERR_NULL_POINTER, "NULL buffer");
    CHECK(len == 0, "nothing written on error");

    /* Out of turn, and senders the round refuses: the party stays at
     * round 1. */
    CHECK_STATUS(oblivex_dkg_party_round3(party, NULL, NULL, NULL, 0), OBLIVEX_ERR_WRONG_ROUND, "round skipped");
    uint16_t zero[1] = {0}, self[1] = {2}, twice[2] = {1, 1};
    const uint8_t *none[2] = {NULL, NULL};
    size_t none_lens[2] = {0, 0};
    CHECK_STATUS(oblivex_dkg_party_round2(party, zero, none, none_lens, none, none_lens, 1),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "sender 0");
    CHECK_STATUS(oblivex_dkg_party_round2(party, self, none, none_lens, none, none_lens, 1),
                 OBLIVEX_ERR_DUPLICATE_MESSAGE, "a message from itself");
    CHECK_STATUS(oblivex_dkg_party_round2(party, twice, none, none_lens, none, none_lens, 2),
                 OBLIVEX_ERR_DUPLICATE_MESSAGE, "two messages from one sender");
    CHECK_STATUS(oblivex_dkg_party_round2(party, twice, NULL, none_lens, none, none_lens, 1),
                 OBLIVEX_ERR_NULL_POINTER, "NULL messages");
    uint16_t qual[N];
    CHECK_STATUS(oblivex_dkg_party_qualified(party, qual, N, &len), OBLIVEX_ERR_WRONG_ROUND, "QUAL before the end");
    CHECK(oblivex_dkg_party_round(party) == 1, "refused calls leave the party at round 1");

    /* Everyone else silent: every other dealer is disqualified, and the
     * party goes on alone until the key is its own. */
    CHECK_STATUS(oblivex_dkg_party_round2(party, NULL, NULL, NULL, NULL, NULL, 0), OBLIVEX_OK, "round 2, alone");
    CHECK_STATUS(oblivex_dkg_party_share_pair(party, 1, msg, sizeof msg, &len), OBLIVEX_ERR_WRONG_ROUND,
                 "pairs are gone after round 1");
    CHECK_STATUS(oblivex_dkg_party_round2(party, NULL, NULL, NULL, NULL, NULL, 0), OBLIVEX_ERR_WRONG_ROUND,
                 "round repeated");
    CHECK(oblivex_dkg_party_round(party) == 2, "at round 2");
    oblivex_dkg_party_free(party);
    oblivex_dkg_party_free(NULL);
    party = NULL;

    /* A refresh from mismatched inputs. */
    oblivex_key_share *shares[N], *other_shares[N], *p256[N];
    oblivex_commitments *commitments = NULL, *other = NULL, *p256_commitments = NULL;
    CHECK_STATUS(oblivex_threshold_deal(SUITE, NULL, 0, T, N, shares, &commitments), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(SUITE, NULL, 0, T, N, other_shares, &other), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(OBLIVEX_SUITE_P256_SHA256, NULL, 0, T, N, p256, &p256_commitments),
                 OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_dkg_refresh_new(shares[0], p256_commitments, N, session, sizeof session, &party),
                 OBLIVEX_ERR_SUITE_MISMATCH, "suites");
    CHECK_STATUS(oblivex_dkg_refresh_new(shares[0], other, N, session, sizeof session, &party),
                 OBLIVEX_ERR_SHARE_MISMATCH, "a share of another key");
    CHECK_STATUS(oblivex_dkg_refresh_new(shares[0], commitments, 4, session, sizeof session, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "n < 2t - 1");
    CHECK_STATUS(oblivex_dkg_refresh_new(shares[N - 1], commitments, N - 1, session, sizeof session, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "n below the share's id and 2t - 1");
    CHECK(party == NULL, "nothing written on error");
    for (int i = 0; i < N; i++) {
        oblivex_key_share_free(shares[i]);
        oblivex_key_share_free(other_shares[i]);
        oblivex_key_share_free(p256[i]);
    }
    oblivex_commitments_free(commitments);
    oblivex_commitments_free(other);
    oblivex_commitments_free(p256_commitments);

    const char *unknown = oblivex_status_str(9999);
    CHECK(strcmp(oblivex_status_str(OBLIVEX_ERR_WRONG_ROUND), unknown) != 0, "WRONG_ROUND described");
    CHECK(strcmp(oblivex_status_str(OBLIVEX_ERR_SHARE_MISMATCH), unknown) != 0, "SHARE_MISMATCH described");
}

/* Statuses of a resharing's bad starts and calls out of turn: each leaves
 * nothing written, or the party where it was. */
static void test_reshare_bad_calls(void) {
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN] = {9};
    oblivex_key_share *shares[N], *wide[N], *p256[N];
    oblivex_commitments *commitments = NULL, *wide_commitments = NULL, *p256_commitments = NULL;
    CHECK_STATUS(oblivex_threshold_deal(SUITE, NULL, 0, T, N, shares, &commitments), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(SUITE, NULL, 0, 2, N, wide, &wide_commitments), OBLIVEX_OK, "deal");
    CHECK_STATUS(oblivex_threshold_deal(OBLIVEX_SUITE_P256_SHA256, NULL, 0, T, N, p256, &p256_commitments),
                 OBLIVEX_OK, "deal");
    oblivex_dkg_party *party = NULL;
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], p256_commitments, N, 2, 3, session, sizeof session,
                                                &party),
                 OBLIVEX_ERR_SUITE_MISMATCH, "suites");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], wide_commitments, N, 2, 3, session, sizeof session,
                                                &party),
                 OBLIVEX_ERR_SHARE_MISMATCH, "a share of another key");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(wide[N - 1], wide_commitments, 3, 2, 3, session, sizeof session,
                                                &party),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "a share id above the old n");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], commitments, 4, 2, 3, session, sizeof session, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "old n < 2t - 1");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], commitments, N, 2, 2, session, sizeof session, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "new n < 2t' - 1");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], commitments, N, 2, 3, session, sizeof session - 1,
                                                &party),
                 OBLIVEX_ERR_BAD_LENGTH, "session length");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(NULL, commitments, N, 2, 3, session, sizeof session, &party),
                 OBLIVEX_ERR_NULL_POINTER, "NULL share");
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[0], commitments, N, 2, 3, session, sizeof session, NULL),
                 OBLIVEX_ERR_NULL_POINTER, "NULL out");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(NULL, N, 2, 3, session, sizeof session, 1, &party),
                 OBLIVEX_ERR_NULL_POINTER, "NULL commitments");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, N, 2, 3, session, sizeof session, 0, &party),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "id 0");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, N, 2, 3, session, sizeof session, 4, &party),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "id above the new n");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, 4, 2, 3, session, sizeof session, 1, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "old n < 2t - 1");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, N, 0, 3, session, sizeof session, 1, &party),
                 OBLIVEX_ERR_INVALID_THRESHOLD, "t' = 0");
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, N, 2, 3, NULL, sizeof session, 1, &party),
                 OBLIVEX_ERR_NULL_POINTER, "NULL session");
    CHECK(party == NULL, "nothing written on error");

    /* Old party 2: it deals to new parties 1..3 (2 included), takes their
     * complaints, then nothing. */
    oblivex_dkg_party *dealer = NULL, *receiver = NULL;
    CHECK_STATUS(oblivex_dkg_reshare_dealer_new(shares[1], commitments, N, 2, 3, session, sizeof session, &dealer),
                 OBLIVEX_OK, "old party start");
    uint8_t msg[MAX_MSG];
    size_t len = 0;
    uint16_t two[1] = {2}, four[1] = {4}, six[1] = {6}, twice[2] = {2, 2};
    const uint8_t *none[2] = {NULL, NULL};
    size_t none_lens[2] = {0, 0};
    CHECK(oblivex_dkg_party_round(dealer) == 2, "an old party waits for round 2");
    CHECK_STATUS(oblivex_dkg_party_share_pair(dealer, 2, msg, sizeof msg, &len), OBLIVEX_OK,
                 "a pair for new party 2");
    CHECK_STATUS(oblivex_dkg_party_share_pair(dealer, 4, msg, sizeof msg, &len), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "a pair for nobody");
    CHECK_STATUS(oblivex_dkg_party_round2(dealer, NULL, NULL, NULL, NULL, NULL, 0), OBLIVEX_ERR_WRONG_ROUND,
                 "an old party takes no round-1 messages");
    CHECK_STATUS(oblivex_dkg_party_round4(dealer, NULL, NULL, NULL, 0), OBLIVEX_ERR_WRONG_ROUND, "round skipped");
    CHECK_STATUS(oblivex_dkg_party_round3(dealer, four, none, none_lens, 1), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "a complaint from nobody");
    CHECK(oblivex_dkg_party_round(dealer) == 2, "refused calls leave the old party at round 2");
    CHECK_STATUS(oblivex_dkg_party_round3(dealer, two, none, none_lens, 1), OBLIVEX_OK,
                 "new party 2's complaints (missing)");
    CHECK_STATUS(oblivex_dkg_party_round4(dealer, two, none, none_lens, 1), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "an old party takes nothing in round 4");
    CHECK_STATUS(oblivex_dkg_party_round4(dealer, NULL, NULL, NULL, 0), OBLIVEX_OK, "old round 4");
    CHECK(oblivex_dkg_party_round(dealer) == 7, "done");
    CHECK_STATUS(oblivex_dkg_party_broadcast(dealer, msg, sizeof msg, &len), OBLIVEX_OK,
                 "its Feldman commitments stay readable");
    CHECK_STATUS(oblivex_dkg_party_round4(dealer, NULL, NULL, NULL, 0), OBLIVEX_ERR_WRONG_ROUND, "round repeated");
    uint16_t qual[N];
    CHECK_STATUS(oblivex_dkg_party_qualified(dealer, qual, N, &len), OBLIVEX_ERR_WRONG_ROUND, "no QUAL");
    oblivex_dkg_party_free(dealer);

    /* New party 2: it sends nothing in round 1, takes old senders 1..5
     * (its own id among them), then new senders 1..3 but itself. */
    CHECK_STATUS(oblivex_dkg_reshare_receiver_new(commitments, N, 2, 3, session, sizeof session, 2, &receiver),
                 OBLIVEX_OK, "new party start");
    CHECK(oblivex_dkg_party_round(receiver) == 1, "a new party waits for round 1");
    CHECK(oblivex_dkg_party_share_pair_len(receiver) == 0, "no pairs");
    CHECK_STATUS(oblivex_dkg_party_share_pair(receiver, 1, msg, sizeof msg, &len), OBLIVEX_ERR_WRONG_ROUND,
                 "a new party deals nothing");
    CHECK_STATUS(oblivex_dkg_party_broadcast(receiver, msg, sizeof msg, &len), OBLIVEX_ERR_WRONG_ROUND,
                 "nor broadcasts in round 1");
    CHECK_STATUS(oblivex_dkg_party_round2(receiver, six, none, none_lens, none, none_lens, 1),
                 OBLIVEX_ERR_INVALID_PARTY_ID, "old sender 6 of 5");
    CHECK_STATUS(oblivex_dkg_party_round2(receiver, twice, none, none_lens, none, none_lens, 2),
                 OBLIVEX_ERR_DUPLICATE_MESSAGE, "old sender 2 twice");
    CHECK(oblivex_dkg_party_round(receiver) == 1, "refused calls leave the new party at round 1");
    CHECK_STATUS(oblivex_dkg_party_round2(receiver, two, none, none_lens, none, none_lens, 1), OBLIVEX_OK,
                 "old party 2 is another party");
    CHECK_STATUS(oblivex_dkg_party_round3(receiver, two, none, none_lens, 1), OBLIVEX_ERR_DUPLICATE_MESSAGE,
                 "new party 2 is itself");
    CHECK_STATUS(oblivex_dkg_party_round3(receiver, four, none, none_lens, 1), OBLIVEX_ERR_INVALID_PARTY_ID,
                 "new sender 4 of 3");
    CHECK_STATUS(oblivex_dkg_party_round3(receiver, NULL, NULL, NULL, 0), OBLIVEX_OK, "round 3");
    CHECK(oblivex_dkg_party_broadcast_len(receiver) == 0, "a new party sends nothing in round 3");
    /* Every old party silent: fewer than t of them qualify, the run fails. */
    CHECK_STATUS(oblivex_dkg_party_round4(receiver, NULL, NULL, NULL, 0), OBLIVEX_ERR_NO_QUALIFIED_PARTY,
                 "no old party left");
    CHECK(oblivex_dkg_party_round(receiver) == 0, "spent");
    oblivex_dkg_party_free(receiver);
    for (int i = 0; i < N; i++) {
        oblivex_key_share_free(shares[i]);
        oblivex_key_share_free(wide[i]);
        oblivex_key_share_free(p256[i]);
    }
    oblivex_commitments_free(commitments);
    oblivex_commitments_free(wide_commitments);
    oblivex_commitments_free(p256_commitments);
}

int main(void) {
    test_seed("test_dkg");
    test_honest_run_refresh_and_reshare();
    test_cheater_named();
    test_cheating_old_party_named();
    test_suite(OBLIVEX_SUITE_P256_SHA256, "P-256");
    test_suite(OBLIVEX_SUITE_BLS12381G1_SHA256, "BLS12-381 G1");
    test_suite(OBLIVEX_SUITE_FFDHE2048_SHA512, "FFDHE2048");
    test_bad_calls();
    test_reshare_bad_calls();
    return test_finish("test_dkg");
}
