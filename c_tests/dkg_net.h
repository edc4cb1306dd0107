/* A test network for DKG parties through the C ABI: each set of parties'
 * last broadcasts and round-1 share pairs, delivered to each recipient
 * through a tamper function (what a cheater or a bad network does), and
 * whole runs: a key generation or refresh among one set, a resharing from
 * an old set (dealers) to a new one (receivers). Shared by test_dkg.c and
 * test_bad_inputs.c. Public header only. */
#ifndef OBLIVEX_DKG_NET_H
#define OBLIVEX_DKG_NET_H

#include "test_util.h"

/* Parties of a set, and bytes of a message (FFDHE2048's reveals of 5
 * parties fit). */
#define MAX_N 5
#define MAX_MSG 4096

/* The messages of one step, as the transport carries them. */
enum step { COMMITMENTS, SHARE_PAIR, COMPLAINTS, JUSTIFICATIONS, FELDMAN, FELDMAN_COMPLAINTS, REVEALS };

/* What the network does to the copy of a message `from` sends `to`:
 * changes it in place (its length too, up to MAX_MSG; 0 drops it). */
typedef void (*tamper_fn)(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len);

static inline void honest(enum step step, uint16_t from, uint16_t to, uint8_t *msg, size_t *len) {
    (void)step;
    (void)from;
    (void)to;
    (void)msg;
    (void)len;
}

/* What one set of parties sent last: each party's broadcast (length 0:
 * none) and its round-1 pairs ([from][to]). */
struct outbox {
    int n;
    uint8_t sent[MAX_N][MAX_MSG];
    size_t sent_len[MAX_N];
    uint8_t pairs[MAX_N][MAX_N][MAX_MSG];
    size_t pair_len[MAX_N][MAX_N];
};

/* One party's inbox of a step, as a round function takes it, with the
 * copies the network delivered. */
struct inbox {
    uint16_t ids[MAX_N];
    const uint8_t *msgs[MAX_N];
    size_t lens[MAX_N];
    const uint8_t *pairs[MAX_N];
    size_t pair_lens[MAX_N];
    size_t count;
    uint8_t copies[MAX_N][MAX_MSG], pair_copies[MAX_N][MAX_MSG];
};

/* One set of parties of a run, and what each one's finalize gave (party
 * i+1's status, share and commitments at index i). */
struct run {
    oblivex_suite suite;
    int n;
    oblivex_dkg_party *parties[MAX_N];
    oblivex_key_share *shares[MAX_N];
    oblivex_commitments *commitments[MAX_N];
    oblivex_status status[MAX_N];
};

/* Reads the last broadcast of each of the `r->n` parties into `out`: one
 * each if `sends`, else none (the step sent nothing), and their round-1
 * pairs for recipients 1..`recipients` (0: none), a party's own id left
 * out when `one_set` (it deals to itself in no message). A party whose
 * step failed (`r->status`) sends nothing. */
static inline void collect(struct outbox *out, const struct run *r, int sends, int recipients, int one_set) {
    out->n = r->n;
    for (int i = 0; i < r->n; i++) {
        size_t len = oblivex_dkg_party_broadcast_len(r->parties[i]);
        out->sent_len[i] = 0;
        if (r->status[i] != OBLIVEX_OK) {
            continue;
        }
        if (!sends) {
            CHECK(len == 0, "party %d sends nothing, not %zu bytes", i + 1, len);
            CHECK_STATUS(oblivex_dkg_party_broadcast(r->parties[i], out->sent[i], MAX_MSG, &out->sent_len[i]),
                         OBLIVEX_ERR_WRONG_ROUND, "no broadcast");
            continue;
        }
        CHECK(len > 0 && len <= MAX_MSG, "broadcast length %zu", len);
        CHECK_STATUS(oblivex_dkg_party_broadcast(r->parties[i], out->sent[i], MAX_MSG, &out->sent_len[i]),
                     OBLIVEX_OK, "broadcast");
        CHECK(out->sent_len[i] == len, "broadcast written %zu", out->sent_len[i]);
        for (uint16_t to = 1; to <= recipients; to++) {
            out->pair_len[i][to - 1] = 0;
            if (one_set && to == i + 1) {
                continue;
            }
            CHECK_STATUS(oblivex_dkg_party_share_pair(r->parties[i], to, out->pairs[i][to - 1], MAX_MSG,
                                                      &out->pair_len[i][to - 1]),
                         OBLIVEX_OK, "share pair");
            CHECK(out->pair_len[i][to - 1] == oblivex_dkg_party_share_pair_len(r->parties[i]), "pair length");
        }
    }
}

/* Copies `len` bytes of `msg` for the recipient, through the network. */
static inline void carry(enum step step, uint16_t from, uint16_t to, const uint8_t *msg, size_t len, tamper_fn tamper,
                         uint8_t *copy, const uint8_t **ptr, size_t *copy_len) {
    memcpy(copy, msg, len);
    *copy_len = len;
    tamper(step, from, to, copy, copy_len);
    *ptr = *copy_len == 0 ? NULL : copy;
}

/* Party `to`'s inbox of `step`: every party of `from` sent it (itself
 * left out when `one_set`), with the pairs they dealt it for COMMITMENTS. */
static inline void deliver(enum step step, const struct outbox *from, uint16_t to, int one_set, tamper_fn tamper,
                           struct inbox *in) {
    in->count = 0;
    for (uint16_t sender = 1; sender <= from->n; sender++) {
        if (one_set && sender == to) {
            continue;
        }
        size_t k = in->count++;
        in->ids[k] = sender;
        carry(step, sender, to, from->sent[sender - 1], from->sent_len[sender - 1], tamper, in->copies[k],
              &in->msgs[k], &in->lens[k]);
        if (step == COMMITMENTS) {
            carry(SHARE_PAIR, sender, to, from->pairs[sender - 1][to - 1], from->pair_len[sender - 1][to - 1],
                  tamper, in->pair_copies[k], &in->pairs[k], &in->pair_lens[k]);
        }
    }
}

typedef oblivex_status (*round_fn)(oblivex_dkg_party *, const uint16_t *, const uint8_t *const *,
                                   const size_t *, size_t);

/* Round 2 at every party of `r`, on `from`'s round-1 messages. */
static inline void round2_all(struct run *r, const struct outbox *from, int one_set, tamper_fn tamper) {
    static struct inbox in;
    for (uint16_t to = 1; to <= r->n; to++) {
        CHECK(oblivex_dkg_party_round(r->parties[to - 1]) == 1, "waits for round 1");
        deliver(COMMITMENTS, from, to, one_set, tamper, &in);
        CHECK_STATUS(oblivex_dkg_party_round2(r->parties[to - 1], in.ids, in.msgs, in.lens, in.pairs,
                                              in.pair_lens, in.count),
                     OBLIVEX_OK, "round 2");
    }
}

/* Round function `f` (rounds 3 to 6) at every party of `r`, on `from`'s
 * messages of `step`. */
static inline void step_all(struct run *r, enum step step, const struct outbox *from, int one_set, round_fn f,
                            tamper_fn tamper) {
    static struct inbox in;
    for (uint16_t to = 1; to <= r->n; to++) {
        CHECK(oblivex_dkg_party_round(r->parties[to - 1]) == (int)step, "party %d waits for round %d", to, step);
        deliver(step, from, to, one_set, tamper, &in);
        CHECK_STATUS(f(r->parties[to - 1], in.ids, in.msgs, in.lens, in.count), OBLIVEX_OK, "round");
    }
}

/* Rounds 5, 6 and the finalize at every party of `r` (the receivers), on
 * `feldman`, the Feldman commitments of the dealers. */
static inline void finish_all(struct run *r, const struct outbox *feldman, int one_set, tamper_fn tamper) {
    static struct outbox out;
    static struct inbox in;
    step_all(r, FELDMAN, feldman, one_set, oblivex_dkg_party_round5, tamper);
    collect(&out, r, 1, 0, 1);
    step_all(r, FELDMAN_COMPLAINTS, &out, 1, oblivex_dkg_party_round6, tamper);
    collect(&out, r, 1, 0, 1);
    for (uint16_t to = 1; to <= r->n; to++) {
        deliver(REVEALS, &out, to, 1, tamper, &in);
        r->shares[to - 1] = NULL;
        r->commitments[to - 1] = NULL;
        r->status[to - 1] = oblivex_dkg_party_finalize(r->parties[to - 1], in.ids, in.msgs, in.lens, in.count,
                                                       &r->shares[to - 1], &r->commitments[to - 1]);
    }
}

/* Runs started parties of a key generation or refresh to the end. */
static inline void run_rounds(struct run *r, tamper_fn tamper) {
    static struct outbox out;
    static const round_fn rounds[] = {oblivex_dkg_party_round3, oblivex_dkg_party_round4};
    collect(&out, r, 1, r->n, 1);
    round2_all(r, &out, 1, tamper);
    for (int k = 0; k < 2; k++) {
        collect(&out, r, 1, 0, 1);
        step_all(r, (enum step)(COMPLAINTS + k), &out, 1, rounds[k], tamper);
    }
    collect(&out, r, 1, 0, 1);
    finish_all(r, &out, 1, tamper);
}

/* A t-of-n key generation on `suite` under a fresh session, through
 * `tamper`. */
static inline void run_new_key(struct run *r, oblivex_suite suite, size_t t, int n, tamper_fn tamper) {
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN];
    test_bytes(session, sizeof session);
    r->suite = suite;
    r->n = n;
    for (uint16_t id = 1; id <= n; id++) {
        r->parties[id - 1] = NULL;
        CHECK_STATUS(oblivex_dkg_party_new(suite, t, (size_t)n, session, sizeof session, id, &r->parties[id - 1]),
                     OBLIVEX_OK, "start");
    }
    run_rounds(r, tamper);
}

static inline void free_run(struct run *r) {
    for (int i = 0; i < r->n; i++) {
        oblivex_dkg_party_free(r->parties[i]);
        oblivex_key_share_free(r->shares[i]);
        oblivex_commitments_free(r->commitments[i]);
    }
}

/* The old parties of `old` deal its key (each its own share, started
 * against its own commitments) to `r`'s t-of-n new parties, started
 * against the old commitments of party 1, under a fresh session, through
 * `tamper` (the old parties are senders 1..old->n, the new ones recipients
 * 1..n: two id spaces). The old parties are done after round 4: they get
 * no share. */
/* Reshares `old`'s key to t of n new parties (`r`). Old party i+1's round
 * 3 must end with `dealer_status[i]` (NULL: every one OBLIVEX_OK); one
 * that fails sends nothing more. */
static inline void run_reshare(struct run *r, const struct run *old, size_t t, int n, tamper_fn tamper,
                               const oblivex_status *dealer_status) {
    static struct run dealers;
    static struct outbox dealt, sent;
    uint8_t session[OBLIVEX_DKG_SESSION_ID_LEN];
    test_bytes(session, sizeof session);
    dealers.suite = r->suite = old->suite;
    dealers.n = old->n;
    r->n = n;
    for (int i = 0; i < old->n; i++) {
        dealers.parties[i] = NULL;
        dealers.shares[i] = NULL;
        dealers.commitments[i] = NULL;
        dealers.status[i] = OBLIVEX_OK;
        CHECK_STATUS(oblivex_dkg_reshare_dealer_new(old->shares[i], old->commitments[i], (size_t)old->n, t,
                                                    (size_t)n, session, sizeof session, &dealers.parties[i]),
                     OBLIVEX_OK, "old party start");
        CHECK(oblivex_dkg_party_round(dealers.parties[i]) == 2, "an old party waits for round 2");
    }
    for (uint16_t id = 1; id <= n; id++) {
        r->parties[id - 1] = NULL;
        r->status[id - 1] = OBLIVEX_OK;
        CHECK_STATUS(oblivex_dkg_reshare_receiver_new(old->commitments[0], (size_t)old->n, t, (size_t)n, session,
                                                      sizeof session, id, &r->parties[id - 1]),
                     OBLIVEX_OK, "new party start");
    }
    /* Round 1: the old parties deal to every new party; the new ones send
     * nothing. */
    collect(&sent, r, 0, 0, 0);
    collect(&dealt, &dealers, 1, n, 0);
    round2_all(r, &dealt, 0, tamper);
    /* Rounds 2 and 3: the new parties' complaints go to everyone, the old
     * parties answer them; the new parties keep them, send nothing. */
    collect(&sent, r, 1, 0, 1);
    static struct inbox in;
    for (uint16_t id = 1; id <= dealers.n; id++) {
        deliver(COMPLAINTS, &sent, id, 0, tamper, &in);
        dealers.status[id - 1] = oblivex_dkg_party_round3(dealers.parties[id - 1], in.ids, in.msgs, in.lens, in.count);
        CHECK_STATUS(dealers.status[id - 1], dealer_status ? dealer_status[id - 1] : OBLIVEX_OK, "old round 3");
    }
    step_all(r, COMPLAINTS, &sent, 1, oblivex_dkg_party_round3, tamper);
    collect(&sent, r, 0, 0, 0);
    /* Round 4: the new parties fix QUAL from the justifications; the old
     * ones publish their Feldman commitments, taking nothing, and are
     * done. */
    collect(&dealt, &dealers, 1, 0, 0);
    step_all(r, JUSTIFICATIONS, &dealt, 0, oblivex_dkg_party_round4, tamper);
    collect(&sent, r, 0, 0, 0);
    uint16_t qual[MAX_N];
    size_t qual_len = 0;
    for (int i = 0; i < old->n; i++) {
        if (dealers.status[i] != OBLIVEX_OK) {
            continue;
        }
        CHECK_STATUS(oblivex_dkg_party_round4(dealers.parties[i], NULL, NULL, NULL, 0), OBLIVEX_OK, "old round 4");
        CHECK(oblivex_dkg_party_round(dealers.parties[i]) == 7, "an old party is done after round 4");
        CHECK_STATUS(oblivex_dkg_party_qualified(dealers.parties[i], qual, MAX_N, &qual_len),
                     OBLIVEX_ERR_WRONG_ROUND, "an old party has no result");
    }
    collect(&dealt, &dealers, 1, 0, 0);
    finish_all(r, &dealt, 0, tamper);
    free_run(&dealers);
}

#endif
