/*
 * Public RSA test vectors through the provider: Wycheproof's PKCS #1 v1.5
 * signature generation (2048, 3072 and 4096 bits; SHA-1 to SHA-512),
 * PKCS #1 v1.5 decryption (2048 bits, 33 keys, valid and invalid
 * ciphertexts) and OAEP decryption (SHA-256, with and without a label, at
 * 2048, 3072 and 4096 bits), converted to lines by
 * scripts/wycheproof-rsa-vectors (provider/tests/vectors/).
 *
 * Every operation runs in an ASYNC job, 8 jobs at a time, so that on the
 * IFMA and AVX2 engines the private operations are batched, keys of one
 * size mixed in a batch.
 * - A signature must equal the vector's, byte for byte.
 * - A valid ciphertext must give the vector's message.
 * - An invalid OAEP ciphertext must fail.
 * - An invalid PKCS #1 v1.5 ciphertext must do what the default provider
 *   of the running OpenSSL does with it: fail, or, where OpenSSL has
 *   implicit rejection (3.2 on), give the same synthetic message.
 *
 * Usage: test_vectors FILE... (run by ctest on every backend).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "../../c_tests/test_util.h"
#include "harness.h"

#define MAX_KEYS 64
#define MAX_OUT 512
#define JOBS_AT_ONCE 8

static OSSL_LIB_CTX *libctx;

typedef enum { SIGN, DECRYPT_PKCS1, DECRYPT_OAEP } op_kind;

/* One vector, and what the provider gave for it. */
typedef struct {
    op_kind kind;
    char tc[16];
    EVP_PKEY *key;
    const char *propq;
    const char *md, *mgf1_md; /* SIGN, OAEP; OAEP */
    unsigned char *label, *input, *expected;
    size_t label_len, input_len, expected_len;
    int valid;
    int ok; /* the operation succeeded */
    unsigned char out[MAX_OUT];
    size_t out_len;
} vector_op;

/* Hex ("-" for empty) into a new buffer; NULL on a malformed string. */
static unsigned char *from_hex(const char *hex, size_t *len) {
    size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex);
    unsigned char *out = malloc(n / 2 + 1);
    if (out == NULL || n % 2 != 0) {
        free(out);
        return NULL;
    }
    for (size_t i = 0; i < n / 2; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            free(out);
            return NULL;
        }
        out[i] = (unsigned char)byte;
    }
    *len = n / 2;
    return out;
}

/* The vector's operation, through the provider of op->propq. */
static int run_op(void *arg) {
    vector_op *op = arg;
    op->out_len = MAX_OUT;
    int ok;
    if (op->kind == SIGN) {
        EVP_MD_CTX *mdctx = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        ok = mdctx != NULL &&
             EVP_DigestSignInit_ex(mdctx, &pctx, op->md, libctx, op->propq, op->key, NULL) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1 &&
             EVP_DigestSign(mdctx, op->out, &op->out_len, op->input, op->input_len) == 1;
        EVP_MD_CTX_free(mdctx);
    } else {
        EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(libctx, op->key, op->propq);
        int oaep = op->kind == DECRYPT_OAEP;
        ok = pctx != NULL && EVP_PKEY_decrypt_init(pctx) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(pctx, oaep ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING) == 1;
        if (ok && oaep) {
            ok = EVP_PKEY_CTX_set_rsa_oaep_md_name(pctx, op->md, NULL) == 1 &&
                 EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, op->mgf1_md, NULL) == 1;
            if (ok && op->label_len > 0) {
                unsigned char *label = OPENSSL_memdup(op->label, op->label_len);
                ok = label != NULL && EVP_PKEY_CTX_set0_rsa_oaep_label(pctx, label, (int)op->label_len) == 1;
                if (!ok) {
                    OPENSSL_free(label);
                }
            }
        }
        ok = ok && EVP_PKEY_decrypt(pctx, op->out, &op->out_len, op->input, op->input_len) == 1;
        EVP_PKEY_CTX_free(pctx);
    }
    op->ok = ok;
    ERR_clear_error();
    return ok;
}

/* Whether the provider's result is the vector's. */
static void check_op(vector_op *op, const char *file) {
    int got = op->ok && op->out_len == op->expected_len &&
              memcmp(op->out, op->expected, op->expected_len) == 0;
    if (op->kind == DECRYPT_PKCS1 && !op->valid) {
        /* The default provider's verdict on the same ciphertext. */
        vector_op reference = *op;
        reference.propq = DEFAULT;
        run_op(&reference);
        CHECK(op->ok == reference.ok &&
                  (!op->ok || (op->out_len == reference.out_len &&
                               memcmp(op->out, reference.out, op->out_len) == 0)),
              "%s %s: an invalid PKCS #1 ciphertext: ok %d, the default provider's %d", file, op->tc,
              op->ok, reference.ok);
    } else if (op->valid) {
        CHECK(got, "%s %s: ok %d, %zu bytes, not the vector's %zu", file, op->tc, op->ok, op->out_len,
              op->expected_len);
    } else {
        CHECK(!op->ok, "%s %s: an invalid ciphertext was decrypted", file, op->tc);
    }
}

/* Parses one line into *op (keys into keys[]); returns 1 for an operation,
 * 0 for a key or a comment, -1 for a malformed line. */
static int parse_line(char *line, EVP_PKEY **keys, size_t *n_keys, vector_op *op) {
    char *fields[10];
    size_t n = 0;
    for (char *tok = strtok(line, " \n"); tok != NULL && n < 10; tok = strtok(NULL, " \n")) {
        fields[n++] = tok;
    }
    if (n == 0 || fields[0][0] == '#') {
        return 0;
    }
    if (strcmp(fields[0], "key") == 0 && n == 3) {
        size_t der_len;
        unsigned char *der = from_hex(fields[2], &der_len);
        const unsigned char *p = der;
        EVP_PKEY *key = der != NULL ? d2i_AutoPrivateKey_ex(NULL, &p, (long)der_len, libctx, NULL) : NULL;
        free(der);
        if (key == NULL || (size_t)atoi(fields[1]) != *n_keys || *n_keys == MAX_KEYS) {
            EVP_PKEY_free(key);
            return -1;
        }
        keys[(*n_keys)++] = key;
        return 0;
    }
    memset(op, 0, sizeof(*op));
    op->propq = OBLIVEX;
    size_t key_id = (size_t)atoi(fields[1]);
    if (key_id >= *n_keys) {
        return -1;
    }
    op->key = keys[key_id];
    const char *input, *expected, *verdict = "valid", *tc;
    if (strcmp(fields[0], "sign") == 0 && n == 6) {
        op->kind = SIGN;
        op->md = fields[2];
        input = fields[3];
        expected = fields[4];
        tc = fields[5];
    } else if (strcmp(fields[0], "pkcs1") == 0 && n == 6) {
        op->kind = DECRYPT_PKCS1;
        input = fields[2];
        expected = fields[3];
        verdict = fields[4];
        tc = fields[5];
    } else if (strcmp(fields[0], "oaep") == 0 && n == 9) {
        op->kind = DECRYPT_OAEP;
        op->md = fields[2];
        op->mgf1_md = fields[3];
        op->label = from_hex(fields[4], &op->label_len);
        input = fields[5];
        expected = fields[6];
        verdict = fields[7];
        tc = fields[8];
    } else {
        return -1;
    }
    op->valid = strcmp(verdict, "valid") == 0;
    snprintf(op->tc, sizeof(op->tc), "%s", tc);
    op->input = from_hex(input, &op->input_len);
    op->expected = from_hex(expected, &op->expected_len);
    return op->input != NULL && op->expected != NULL && (op->kind != DECRYPT_OAEP || op->label != NULL)
               ? 1
               : -1;
}

static void free_op(vector_op *op) {
    free(op->label);
    free(op->input);
    free(op->expected);
}

/* Runs every vector of `path`, JOBS_AT_ONCE jobs at a time; returns the
 * number of operations. Static: the copies (the strings the ops point
 * into) outlive each batch. */
static size_t run_file(const char *path) {
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (f == NULL) {
        return 0;
    }
    EVP_PKEY *keys[MAX_KEYS];
    size_t n_keys = 0, total = 0, pending = 0, line_no = 0;
    static vector_op ops[JOBS_AT_ONCE];
    static char lines[JOBS_AT_ONCE][8192]; /* the md names point into these */
    void *args[JOBS_AT_ONCE];
    for (;;) {
        char *line = lines[pending];
        int more = fgets(line, sizeof(lines[0]), f) != NULL;
        line_no += more;
        int parsed = more ? parse_line(line, keys, &n_keys, &ops[pending]) : 0;
        CHECK(parsed >= 0, "%s line %zu: malformed", path, line_no);
        if (parsed == 1) {
            args[pending] = &ops[pending];
            pending++;
        }
        if (pending == JOBS_AT_ONCE || (!more && pending > 0)) {
            run_async_jobs(run_op, args, pending, 0, pending);
            for (size_t i = 0; i < pending; i++) {
                check_op(&ops[i], path);
                free_op(&ops[i]);
            }
            total += pending;
            pending = 0;
        }
        if (!more) {
            break;
        }
    }
    fclose(f);
    for (size_t k = 0; k < n_keys; k++) {
        EVP_PKEY_free(keys[k]);
    }
    CHECK(total > 0, "%s: no vector", path);
    return total;
}

int main(int argc, char **argv) {
    test_seed("test_vectors");
    OSSL_PROVIDER *prov;
    libctx = context_with("oblivex", &prov);
    uint64_t batched = count_of(prov, "oblivex-batched-operations");
    size_t total = 0;
    for (int i = 1; i < argc; i++) {
        size_t n = run_file(argv[i]);
        printf("%s: %zu vectors\n", argv[i], n);
        total += n;
    }
    CHECK(argc > 1, "no vector file given");
    batched = count_of(prov, "oblivex-batched-operations") - batched;
    /* Most vectors reach the exponentiation (not the malformed ones). */
    CHECK(!engine_batches() || batched >= total / 2, "on %s only %llu of %zu operations were batched",
          oblivex_backend_name(), (unsigned long long)batched, total);
    OSSL_LIB_CTX_free(libctx);
    if (test_failures > 0) {
        fprintf(stderr, "test_vectors: %d failures\n", test_failures);
        return 1;
    }
    printf("test_vectors: %zu vectors ok on %s (%llu operations batched)\n", total,
           oblivex_backend_name(), (unsigned long long)batched);
    return 0;
}
