/* RFC 9497 through the C ABI: a full blind / evaluate / finalize batch for
 * every suite and mode; a server using another key is detected (VOPRF,
 * POPRF); RFC 9497 test vectors (ristretto255-SHA512, every mode, batch
 * vectors included) reproduced through the C API; every error path returns
 * its status and writes nothing. Public header only. */
#include "test_util.h"

#define MAX_ELEM 512
#define N_INPUTS 3

static const int suites[] = {OBLIVEX_SUITE_RISTRETTO255_SHA512, OBLIVEX_SUITE_P256_SHA256,
                             OBLIVEX_SUITE_BLS12381G1_SHA256,  OBLIVEX_SUITE_FFDHE2048_SHA512,
                             OBLIVEX_SUITE_FFDHE3072_SHA512,   OBLIVEX_SUITE_FFDHE4096_SHA512};
static const int modes[] = {OBLIVEX_OPRF_MODE_OPRF, OBLIVEX_OPRF_MODE_VOPRF, OBLIVEX_OPRF_MODE_POPRF};

static size_t hex_to_bytes(const char *hex, uint8_t *out) {
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* One batch from blinding to outputs; returns the finalize status. */
static oblivex_status run_batch(int suite, int mode, const oblivex_oprf_server *server,
                                const oblivex_oprf_server *answering, const uint8_t *const *inputs,
                                const size_t *lens, size_t n, const uint8_t *info, size_t info_len,
                                uint8_t *outputs, size_t outputs_cap, size_t *outputs_written) {
    size_t elem = oblivex_suite_element_len(suite), proof_len = oblivex_suite_proof_len(suite);
    uint8_t pk[MAX_ELEM], blinded[N_INPUTS * MAX_ELEM], evaluated[N_INPUTS * MAX_ELEM], proof[2 * MAX_ELEM];
    size_t pk_len = 0, blinded_len = 0, evaluated_len = 0, proof_written = 0;
    CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "public key");
    CHECK(pk_len == elem, "public key length");
    oblivex_oprf_batch *batch = NULL;
    int with_key = mode != OBLIVEX_OPRF_MODE_OPRF;
    CHECK_STATUS(oblivex_oprf_batch_blind(suite, mode, inputs, lens, n, info, info_len, with_key ? pk : NULL,
                                           with_key ? pk_len : 0, blinded, sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_OK, "blind");
    CHECK(blinded_len == n * elem, "blinded length");
    CHECK_STATUS(oblivex_oprf_server_evaluate(answering, blinded, blinded_len, info, info_len, evaluated,
                                                    sizeof evaluated, &evaluated_len, proof, sizeof proof,
                                                    &proof_written),
                 OBLIVEX_OK, "evaluate");
    CHECK(evaluated_len == blinded_len, "evaluated length");
    CHECK(proof_written == (with_key ? proof_len : 0), "proof length %zu", proof_written);
    oblivex_status st = oblivex_oprf_batch_finalize(batch, evaluated, evaluated_len, with_key ? proof : NULL,
                                                     proof_written, outputs, outputs_cap, outputs_written);
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, evaluated_len, proof, proof_written, outputs,
                                              outputs_cap, outputs_written),
                 OBLIVEX_ERR_BATCH_USED, "second finalize");
    oblivex_oprf_batch_free(batch);
    return st;
}

static void every_suite_and_mode(void) {
    const uint8_t a[] = "first input", b[] = "second", c[] = "";
    const uint8_t *inputs[N_INPUTS] = {a, b, c};
    const size_t lens[N_INPUTS] = {sizeof a - 1, sizeof b - 1, 0};
    const uint8_t info[] = "public info";
    for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            int suite = suites[s], mode = modes[m];
            size_t info_len = mode == OBLIVEX_OPRF_MODE_POPRF ? sizeof info - 1 : 0;
            size_t out_len = oblivex_suite_output_len(suite);
            oblivex_oprf_server *server = NULL, *other = NULL;
            CHECK_STATUS(oblivex_oprf_server_generate(suite, mode, &server), OBLIVEX_OK, "generate");
            CHECK_STATUS(oblivex_oprf_server_generate(suite, mode, &other), OBLIVEX_OK, "generate other");
            uint8_t first[N_INPUTS * 64], second[N_INPUTS * 64], cheated[N_INPUTS * 64];
            size_t w1 = 0, w2 = 0, w3 = 777;
            CHECK_STATUS(run_batch(suite, mode, server, server, inputs, lens, N_INPUTS, info, info_len, first,
                                   sizeof first, &w1),
                         OBLIVEX_OK, "batch");
            CHECK_STATUS(run_batch(suite, mode, server, server, inputs, lens, N_INPUTS, info, info_len, second,
                                   sizeof second, &w2),
                         OBLIVEX_OK, "batch again");
            CHECK(w1 == N_INPUTS * out_len && w2 == w1 && memcmp(first, second, w1) == 0,
                  "suite %d mode %d: same key, same outputs", suite, mode);
            memset(cheated, 0xcc, sizeof cheated);
            oblivex_status st = run_batch(suite, mode, server, other, inputs, lens, N_INPUTS, info, info_len,
                                          cheated, sizeof cheated, &w3);
            if (mode == OBLIVEX_OPRF_MODE_OPRF) {
                CHECK_STATUS(st, OBLIVEX_OK, "OPRF cannot tell");
            } else {
                CHECK_STATUS(st, OBLIVEX_ERR_VERIFICATION_FAILED, "another key is detected");
                CHECK(w3 == 777 && test_all_bytes(cheated, sizeof cheated, 0xcc), "no output on failure");
            }
            oblivex_oprf_server_free(server);
            oblivex_oprf_server_free(other);
        }
    }
}

struct rfc_vector {
    int mode;
    const char *section, *info_hex;
    size_t batch;
    const char *pk_hex, *outputs_hex;
};

/* RFC 9497 Appendix A.1 (ristretto255-SHA512): seed a3..a3, key info
 * "test key", inputs 00 and 5a x 17 (batch vectors take both). */
static const struct rfc_vector rfc[] = {
    {OBLIVEX_OPRF_MODE_OPRF, "A.1.1.1", "", 1, "",
     "527759c3d9366f277d8c6020418d96bb393ba2afb20ff90df23fb7708264e2f3ab9135e3bd69955851de4b1f9fe8a0973396719b7912ba9ee8aa7d0b5e24bcf6"},
    {OBLIVEX_OPRF_MODE_VOPRF, "A.1.2.3", "", 2, "c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e",
     "b58cfbe118e0cb94d79b5fd6a6dafb98764dff49c14e1770b566e42402da1a7da4d8527693914139caee5bd03903af43a491351d23b430948dd50cde10d32b3c"
     "8a9a2f3c7f085b65933594309041fc1898d42d0858e59f90814ae90571a6df60356f4610bf816f27afdd84f47719e480906d27ecd994985890e5f539e7ea74b6"},
    {OBLIVEX_OPRF_MODE_POPRF, "A.1.3.3", "7465737420696e666f", 2,
     "c647bef38497bc6ec077c22af65b696efa43bff3b4a1975a3e8e0a1c5a79d631",
     "ca688351e88afb1d841fde4401c79efebb2eb75e7998fa9737bd5a82a152406d38bd29f680504e54fd4587eddcf2f37a2617ac2fbd2993f7bdf45442ace7d221"
     "7c6557b276a137922a0bcfc2aa2b35dd78322bd500235eb6d6b6f91bc5b56a52de2d65612d503236b321f5d0bebcbc52b64b92e426f29c9b8b69f52de98ae507"},
};

static void rfc_vectors(void) {
    uint8_t seed[32], key_info[] = "test key", input0[] = {0x00}, input1[17];
    memset(seed, 0xa3, sizeof seed);
    memset(input1, 0x5a, sizeof input1);
    const uint8_t *inputs[2] = {input0, input1};
    const size_t lens[2] = {1, 17};
    for (size_t i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
        const struct rfc_vector *v = &rfc[i];
        oblivex_oprf_server *server = NULL;
        CHECK_STATUS(oblivex_oprf_server_derive(OBLIVEX_SUITE_RISTRETTO255_SHA512, v->mode, seed, sizeof seed,
                                                key_info, sizeof key_info - 1, &server),
                     OBLIVEX_OK, v->section);
        uint8_t pk[32], want_pk[32], info[32], want[128], got[128];
        size_t pk_len = 0, got_len = 0;
        if (v->pk_hex[0] != '\0') {
            hex_to_bytes(v->pk_hex, want_pk);
            CHECK_STATUS(oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len), OBLIVEX_OK, "pk");
            CHECK(pk_len == 32 && memcmp(pk, want_pk, 32) == 0, "%s: public key", v->section);
        }
        size_t info_len = hex_to_bytes(v->info_hex, info);
        size_t want_len = hex_to_bytes(v->outputs_hex, want);
        CHECK_STATUS(run_batch(OBLIVEX_SUITE_RISTRETTO255_SHA512, v->mode, server, server, inputs, lens, v->batch,
                               info, info_len, got, sizeof got, &got_len),
                     OBLIVEX_OK, v->section);
        CHECK(got_len == want_len && memcmp(got, want, want_len) == 0, "%s: outputs equal RFC 9497", v->section);
        oblivex_oprf_server_free(server);
    }
}

static void error_paths(void) {
    int rs = OBLIVEX_SUITE_RISTRETTO255_SHA512;
    oblivex_oprf_server *sentinel = (oblivex_oprf_server *)&test_failures, *server = sentinel;
    uint8_t key[32] = {1};
    CHECK_STATUS(oblivex_oprf_server_new(99, 0, key, 32, &server), OBLIVEX_ERR_UNKNOWN_SUITE, "unknown suite");
    CHECK_STATUS(oblivex_oprf_server_new(rs, 7, key, 32, &server), OBLIVEX_ERR_UNKNOWN_MODE, "unknown mode");
    CHECK_STATUS(oblivex_oprf_server_new(rs, 0, NULL, 32, &server), OBLIVEX_ERR_NULL_POINTER, "NULL key");
    CHECK_STATUS(oblivex_oprf_server_new(rs, 0, key, 31, &server), OBLIVEX_ERR_INVALID_SCALAR, "short key");
    memset(key, 0, sizeof key);
    CHECK_STATUS(oblivex_oprf_server_new(rs, 0, key, 32, &server), OBLIVEX_ERR_INVALID_SCALAR, "zero key");
    memset(key, 0xff, sizeof key);
    CHECK_STATUS(oblivex_oprf_server_new(rs, 0, key, 32, &server), OBLIVEX_ERR_INVALID_SCALAR, "key >= q");
    CHECK(server == sentinel, "no handle on error");
    CHECK(oblivex_suite_element_len(99) == 0 && oblivex_suite_element_len(rs) == 32, "sizes");
    CHECK(oblivex_suite_scalar_len(OBLIVEX_SUITE_P256_SHA256) == 32 && oblivex_suite_proof_len(rs) == 64, "sizes");

    key[0] = 1;
    memset(key + 1, 0, 31);
    CHECK_STATUS(oblivex_oprf_server_new(rs, OBLIVEX_OPRF_MODE_VOPRF, key, 32, &server), OBLIVEX_OK, "key = 1");
    uint8_t bad[64], out[64], proof[64];
    size_t written = 555, proof_written = 555;
    memset(bad, 0xff, sizeof bad);
    memset(out, 0xcc, sizeof out);
    CHECK_STATUS(oblivex_oprf_server_evaluate(server, bad, 32, NULL, 0, out, sizeof out, &written, proof,
                                                    sizeof proof, &proof_written),
                 OBLIVEX_ERR_INVALID_ELEMENT, "invalid element");
    CHECK_STATUS(oblivex_oprf_server_evaluate(server, bad, 31, NULL, 0, out, sizeof out, &written, proof,
                                                    sizeof proof, &proof_written),
                 OBLIVEX_ERR_BAD_LENGTH, "partial element");
    CHECK_STATUS(oblivex_oprf_server_evaluate(server, bad, 32, NULL, 0, out, sizeof out, &written, NULL, 64,
                                                    &proof_written),
                 OBLIVEX_ERR_NULL_POINTER, "VOPRF needs a proof buffer");
    CHECK(written == 555 && proof_written == 555 && test_all_bytes(out, sizeof out, 0xcc), "nothing written");

    /* A client batch survives a refused finalize (short buffer, no proof). */
    const uint8_t x[] = "x";
    const uint8_t *inputs[1] = {x};
    size_t lens[1] = {1};
    uint8_t pk[32], blinded[32], evaluated[32];
    size_t pk_len = 0, blinded_len = 0, evaluated_len = 0;
    oblivex_oprf_server_public_key(server, pk, sizeof pk, &pk_len);
    oblivex_oprf_batch *batch = NULL;
    CHECK_STATUS(oblivex_oprf_batch_blind(rs, OBLIVEX_OPRF_MODE_VOPRF, inputs, lens, 1, NULL, 0, NULL, 0, blinded,
                                           sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_ERR_MISSING_PUBLIC_KEY, "VOPRF blind needs the public key");
    CHECK_STATUS(oblivex_oprf_batch_blind(rs, OBLIVEX_OPRF_MODE_VOPRF, inputs, lens, 0, NULL, 0, pk, 32, blinded,
                                           sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_ERR_EMPTY_INPUT, "no inputs");
    CHECK_STATUS(oblivex_oprf_batch_blind(rs, OBLIVEX_OPRF_MODE_VOPRF, inputs, lens, 1, NULL, 0, pk, 32, blinded,
                                           31, &blinded_len, &batch),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short blinded buffer");
    CHECK(batch == NULL, "no batch on error");
    CHECK_STATUS(oblivex_oprf_batch_blind(rs, OBLIVEX_OPRF_MODE_VOPRF, inputs, lens, 1, NULL, 0, pk, 32, blinded,
                                           sizeof blinded, &blinded_len, &batch),
                 OBLIVEX_OK, "blind");
    CHECK_STATUS(oblivex_oprf_server_evaluate(server, blinded, blinded_len, NULL, 0, evaluated,
                                                    sizeof evaluated, &evaluated_len, proof, sizeof proof,
                                                    &proof_written),
                 OBLIVEX_OK, "evaluate");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, 32, proof, 64, out, 63, &written),
                 OBLIVEX_ERR_BUFFER_TOO_SMALL, "short output buffer");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, 32, NULL, 0, out, 64, &written),
                 OBLIVEX_ERR_MISSING_PROOF, "missing proof");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, 32, proof, 63, out, 64, &written),
                 OBLIVEX_ERR_BAD_LENGTH, "short proof");
    CHECK(written == 555 && test_all_bytes(out, sizeof out, 0xcc), "nothing written");
    CHECK_STATUS(oblivex_oprf_batch_finalize(batch, evaluated, 32, proof, 64, out, 64, &written), OBLIVEX_OK,
                 "finalize after refusals");
    CHECK(written == 64, "one output");
    oblivex_oprf_batch_free(batch);
    oblivex_oprf_batch_free(NULL);
    oblivex_oprf_server_free(server);
    oblivex_oprf_server_free(NULL);
}

int main(void) {
    test_seed("test_oprf");
    every_suite_and_mode();
    rfc_vectors();
    error_paths();
    return test_finish("test_oprf");
}
