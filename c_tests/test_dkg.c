/* The distributed key generation through the C ABI, 3-of-5 on
 * ristretto255: an honest run whose shares and commitments go unchanged to
 * the threshold OPRF (outputs equal to the single-key OPRF under the key
 * three shares reconstruct, here only), a refresh of it (same public key,
 * same outputs), a cheater whose malformed broadcast every honest party
 * names with the same status, and the statuses of bad calls (each leaving
 * the party where it was). Public header only; OpenSSL's BIGNUM does the
 * test's own key reconstruction. */
#include <openssl/bn.h>

#include "test_util.h"

#define T 3
#define N 5
#define MAX_MSG 1024
#define INPUTS 2
#define SUITE OBLIVEX_SUITE_RISTRETTO255_SHA512
#define SCALAR_LEN 32
#define MAX_REQ ((INPUTS + 1) * 32)

static const uint8_t msg_a[] = "alpha", msg_b[] = "bravo";
static const uint8_t *const inputs[INPUTS] = {msg_a, msg_b};
static const size_t input_lens[INPUTS] = {sizeof msg_a - 1, sizeof msg_b - 1};

/* The messages of one step, as the transport carries them. */
enum step { COMMITMENTS, SHARE_PAIR, COMPLAINTS, JUSTIFICATIONS, FELDMAN, FELDMAN_COMPLAINTS, REVEALS };

/* What the network does to the copy of a message `from` sends `to`:
 * changes it in place (its length too; 0 drops it). */
typedef void (*tamper_fn)(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len);

static void honest(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len) {
    (void)step;
    (void)from;
    (void)to;
    (void)msg;
    (void)len;
}

/* Party 5 cuts its round-1 commitments short for everyone. */
static void truncated_commitments(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len) {
    (void)to;
    (void)msg;
    if (step == COMMITMENTS && from == 5) {
        *len -= 1;
    }
}

/* Each party's last broadcast and round-1 pairs ([from][to]), and every
 * recipient's copies ([to][from]). */
static uint8_t sent[N][MAX_MSG], pairs[N][N][MAX_MSG];
static size_t sent_len[N], pair_len[N][N];
static uint8_t copies[N][N][MAX_MSG], pair_copies[N][N][MAX_MSG];

/* One party's inbox of a step, as a round function takes it. */
struct inbox {
    uint16_t ids[N];
    const uint8_t *msgs[N];
    size_t lens[N];
    const uint8_t *pairs[N];
    size_t pair_lens[N];
    size_t count;
};

static void collect(oblivex_dkg_party *const parties[N], int with_pairs) {
    for (int i = 0; i < N; i++) {
        size_t len = oblivex_dkg_party_broadcast_len(parties[i]);
        CHECK(len > 0 && len <= MAX_MSG, "broadcast length %zu", len);
        CHECK_STATUS(oblivex_dkg_party_broadcast(parties[i], sent[i], MAX_MSG, &sent_len[i]), OBLIVEX_OK,
                     "broadcast");
        CHECK(sent_len[i] == len, "broadcast written %zu", sent_len[i]);
        for (uint16_t to = 1; with_pairs && to <= N; to++) {
            if (to != i + 1) {
                CHECK_STATUS(oblivex_dkg_party_share_pair(parties[i], to, pairs[i][to - 1], MAX_MSG,
                                                          &pair_len[i][to - 1]),
                             OBLIVEX_OK, "share pair");
                CHECK(pair_len[i][to - 1] == oblivex_dkg_party_share_pair_len(parties[i]), "pair length");
            }
        }
    }
}

/* Copies `len` bytes of `msg` for the recipient, through the network. */
static void carry(enum step step, uint16_t from, uint16_t to, const uint8_t *msg, size_t len, tamper_fn tamper,
                  uint8_t *copy, const uint8_t **ptr, size_t *copy_len) {
    memcpy(copy, msg, len);
    *copy_len = len;
    tamper(step, from, to, copy, copy_len);
    *ptr = *copy_len == 0 ? NULL : copy;
}

static void deliver(enum step step, uint16_t to, tamper_fn tamper, struct inbox *in) {
    in->count = 0;
    for (uint16_t from = 1; from <= N; from++) {
        if (from == to) {
            continue;
        }
        size_t k = in->count++;
        in->ids[k] = from;
        carry(step, from, to, sent[from - 1], sent_len[from - 1], tamper, copies[to - 1][from - 1], &in->msgs[k],
              &in->lens[k]);
        if (step == COMMITMENTS) {
            carry(SHARE_PAIR, from, to, pairs[from - 1][to - 1], pair_len[from - 1][to - 1], tamper,
                  pair_copies[to - 1][from - 1], &in->pairs[k], &in->pair_lens[k]);
        }
    }
}

typedef oblivex_status (*round_fn)(oblivex_dkg_party *, const uint16_t *, const uint8_t *const *,
                                   const size_t *, size_t);

/* One run: the parties, and what each one's finalize gave (party i+1's
 * status, share and commitments at index i). */
struct run {
    oblivex_dkg_party *parties[N];
    oblivex_key_share *shares[N];
    oblivex_commitments *commitments[N];
    oblivex_status status[N];
};

/* Runs started parties to the end. */
static void run_rounds(struct run *r, tamper_fn tamper) {
    oblivex_dkg_party *const *parties = r->parties;
    static struct inbox in;
    collect(parties, 1);
    for (uint16_t to = 1; to <= N; to++) {
        CHECK(oblivex_dkg_party_round(parties[to - 1]) == 1, "waits for round 1");
        deliver(COMMITMENTS, to, tamper, &in);
        CHECK_STATUS(oblivex_dkg_party_round2(parties[to - 1], in.ids, in.msgs, in.lens, in.pairs, in.pair_lens,
                                              in.count),
                     OBLIVEX_OK, "round 2");
    }
    static const round_fn rounds[] = {oblivex_dkg_party_round3, oblivex_dkg_party_round4,
                                      oblivex_dkg_party_round5, oblivex_dkg_party_round6};
    for (int k = 0; k < 4; k++) {
        collect(parties, 0);
        for (uint16_t to = 1; to <= N; to++) {
            CHECK(oblivex_dkg_party_round(parties[to - 1]) == k + 2, "waits for round %d", k + 2);
            deliver((enum step)(COMPLAINTS + k), to, tamper, &in);
            CHECK_STATUS(rounds[k](parties[to - 1], in.ids, in.msgs, in.lens, in.count), OBLIVEX_OK, "round");
        }
    }
    collect(parties, 0);
    for (uint16_t to = 1; to <= N; to++) {
        deliver(REVEALS, to, tamper, &in);
        r->shares[to - 1] = NULL;
        r->commitments[to - 1] = NULL;
        r->status[to - 1] = oblivex_dkg_party_finalize(parties[to - 1], in.ids, in.msgs, in.lens, in.count,
                                                       &r->shares[to - 1], &r->commitments[to - 1]);
    }
}

/* A run of a new key under a fresh session, through `tamper`. */
static void run_new_key(struct run *r, tamper_fn tamper) {
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN];
    test_bytes(session, sizeof session);
    for (uint16_t id = 1; id <= N; id++) {
        r->parties[id - 1] = NULL;
        CHECK_STATUS(oblivex_dkg_party_new(SUITE, T, N, session, sizeof session, id, &r->parties[id - 1]),
                     OBLIVEX_OK, "start");
    }
    run_rounds(r, tamper);
}

static void free_run(struct run *r) {
    for (int i = 0; i < N; i++) {
        oblivex_dkg_party_free(r->parties[i]);
        oblivex_key_share_free(r->shares[i]);
        oblivex_commitments_free(r->commitments[i]);
    }
}

/* Parties `from`..`to` (1-based) finalized with one key: their shares
 * match, their commitments, QUAL and blame lists are the same. */
static void expect_agreement(const struct run *r, int from, int to, const uint16_t *qual, size_t qual_len,
                             const uint16_t *blame, size_t blame_len) {
    oblivex_dkg_party *const *parties = r->parties;
    oblivex_key_share *const *shares = r->shares;
    oblivex_commitments *const *commitments = r->commitments;
    const oblivex_status *status = r->status;
    uint8_t first[T * 32], bytes[T * 32];
    size_t first_len = 0, len = 0;
    for (int i = from - 1; i < to; i++) {
        CHECK_STATUS(status[i], OBLIVEX_OK, "finalize");
        if (status[i] != OBLIVEX_OK) {
            continue;
        }
        CHECK(oblivex_dkg_party_round(parties[i]) == 7, "finalized");
        CHECK(oblivex_key_share_id(shares[i]) == i + 1, "share id");
        CHECK_STATUS(oblivex_commitments_verify_share(commitments[i], shares[i]), OBLIVEX_OK, "share matches");
        CHECK_STATUS(oblivex_commitments_to_bytes(commitments[i], bytes, sizeof bytes, &len), OBLIVEX_OK, "bytes");
        if (i == from - 1) {
            memcpy(first, bytes, len);
            first_len = len;
        }
        CHECK(len == first_len && memcmp(bytes, first, len) == 0, "party %d: the same commitments", i + 1);
        uint16_t got[N * 8];
        size_t got_len = 0;
        CHECK_STATUS(oblivex_dkg_party_qualified(parties[i], got, N, &got_len), OBLIVEX_OK, "qualified");
        CHECK(got_len == qual_len && memcmp(got, qual, qual_len * sizeof *got) == 0, "party %d: QUAL", i + 1);
        CHECK(oblivex_dkg_party_blame_len(parties[i]) == blame_len, "party %d: blame length %zu", i + 1,
              oblivex_dkg_party_blame_len(parties[i]));
        CHECK_STATUS(oblivex_dkg_party_blame(parties[i], got, sizeof got / sizeof *got, &got_len), OBLIVEX_OK,
                     "blame");
        CHECK(got_len == blame_len && memcmp(got, blame, blame_len * sizeof *got) == 0, "party %d: blame",
              i + 1);
    }
}

/* The key shares 1, 2 and 3 reconstruct (Lagrange at 0: 3, -3, 1), in the
 * suite's little-endian encoding. A test's privilege: no party can. */
static void reconstruct_key(oblivex_key_share *const shares[N], uint8_t key[SCALAR_LEN]) {
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

/* The threshold OPRF outputs with every party's share, checked against
 * `commitments`; no server cheats. */
static void threshold_outputs(oblivex_commitments *commitments, oblivex_key_share *const shares[N],
                              uint8_t *outputs) {
    uint8_t request[MAX_REQ];
    static uint8_t responses[N][MAX_REQ];
    const uint8_t *ptrs[N];
    size_t request_len = 0, lens[N], outputs_len = 0, cheaters_len = 0;
    uint16_t ids[N], cheaters[N];
    oblivex_threshold_oprf_batch *batch = NULL;
    CHECK_STATUS(oblivex_threshold_oprf_batch_blind(commitments, inputs, input_lens, INPUTS, NULL, 0, 0, request,
                                                     sizeof request, &request_len, &batch),
                 OBLIVEX_OK, "threshold blind");
    for (int i = 0; i < N; i++) {
        CHECK_STATUS(oblivex_threshold_server_evaluate(shares[i], NULL, 0, request, request_len, responses[i],
                                                       MAX_REQ, &lens[i]),
                     OBLIVEX_OK, "server evaluate");
        ids[i] = (uint16_t)(i + 1);
        ptrs[i] = responses[i];
    }
    CHECK_STATUS(oblivex_threshold_oprf_batch_finalize(batch, ids, ptrs, lens, N, outputs, INPUTS * 64,
                                                        &outputs_len, cheaters, N, &cheaters_len),
                 OBLIVEX_OK, "threshold finalize");
    CHECK(cheaters_len == 0, "no cheater");
    oblivex_threshold_oprf_batch_free(batch);
}

static void test_honest_run_and_refresh(void) {
    static struct run dkg, refresh;
    run_new_key(&dkg, honest);
    static const uint16_t all[N] = {1, 2, 3, 4, 5}, no_blame[1] = {0};
    expect_agreement(&dkg, 1, N, all, N, no_blame, 0);

    uint8_t key[SCALAR_LEN], expected[INPUTS * 64], outputs[INPUTS * 64];
    size_t out_len = INPUTS * oblivex_suite_output_len(SUITE);
    reconstruct_key(dkg.shares, key);
    single_key_outputs(key, expected);
    memset(key, 0, sizeof key);
    threshold_outputs(dkg.commitments[0], dkg.shares, outputs);
    CHECK(memcmp(outputs, expected, out_len) == 0, "threshold OPRF on the DKG's output = single-key OPRF");

    /* A refresh: new shares and commitments, the same public key and
     * outputs. */
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN];
    test_bytes(session, sizeof session);
    for (int i = 0; i < N; i++) {
        refresh.parties[i] = NULL;
        CHECK_STATUS(oblivex_dkg_refresh_new(dkg.shares[i], dkg.commitments[i], N, session, sizeof session,
                                             &refresh.parties[i]),
                     OBLIVEX_OK, "refresh start");
    }
    run_rounds(&refresh, honest);
    expect_agreement(&refresh, 1, N, all, N, no_blame, 0);
    uint8_t old_pk[64], new_pk[64];
    size_t old_len = 0, new_len = 0;
    CHECK_STATUS(oblivex_commitments_public_key(dkg.commitments[0], old_pk, sizeof old_pk, &old_len), OBLIVEX_OK,
                 "pk");
    CHECK_STATUS(oblivex_commitments_public_key(refresh.commitments[0], new_pk, sizeof new_pk, &new_len),
                 OBLIVEX_OK, "pk");
    CHECK(old_len == new_len && memcmp(old_pk, new_pk, old_len) == 0, "refresh keeps the public key");
    CHECK_STATUS(oblivex_commitments_verify_share(refresh.commitments[0], dkg.shares[0]),
                 OBLIVEX_ERR_VERIFICATION_FAILED, "an old share fails the new commitments");
    memset(outputs, 0, sizeof outputs);
    threshold_outputs(refresh.commitments[0], refresh.shares, outputs);
    CHECK(memcmp(outputs, expected, out_len) == 0, "refreshed shares give the same outputs");
    free_run(&refresh);
    free_run(&dkg);
}

static void test_cheater_named(void) {
    static struct run dkg;
    run_new_key(&dkg, truncated_commitments);
    /* Parties 1 to 4 agree: 5 is out, for a round-1 broadcast that does
     * not decode (a length that does not fit its layout). */
    static const uint16_t qual[4] = {1, 2, 3, 4};
    const uint16_t blame[OBLIVEX_DKG_BLAME_ENTRY_LEN] = {5, OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID, 1,
                                                         (uint16_t)OBLIVEX_ERR_BAD_LENGTH};
    expect_agreement(&dkg, 1, 4, qual, 4, blame, OBLIVEX_DKG_BLAME_ENTRY_LEN);
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

int main(void) {
    test_seed("test_dkg");
    test_honest_run_and_refresh();
    test_cheater_named();
    test_bad_calls();
    return test_finish("test_dkg");
}
