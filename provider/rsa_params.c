/*
 * The parameters the signature and cipher contexts share: the padding
 * mode and the PSS salt length (each an integer or a name, as OpenSSL
 * accepts them), and digests fetched from the provider's library context.
 */
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* An integer setting and the name OpenSSL also accepts for it. */
typedef struct {
    int value;
    const char *name;
} named_value;

#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

static const named_value PAD_MODES[] = {
    {RSA_NO_PADDING, OSSL_PKEY_RSA_PAD_MODE_NONE},
    {RSA_PKCS1_PADDING, OSSL_PKEY_RSA_PAD_MODE_PKCSV15},
    {RSA_PKCS1_OAEP_PADDING, OSSL_PKEY_RSA_PAD_MODE_OAEP},
    {RSA_X931_PADDING, OSSL_PKEY_RSA_PAD_MODE_X931},
    {RSA_PKCS1_PSS_PADDING, OSSL_PKEY_RSA_PAD_MODE_PSS},
};

static const named_value SALT_LENGTHS[] = {
    {RSA_PSS_SALTLEN_DIGEST, OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST},
    {RSA_PSS_SALTLEN_MAX, OSSL_PKEY_RSA_PSS_SALT_LEN_MAX},
    {RSA_PSS_SALTLEN_AUTO, OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO},
};

/* A string parameter copied into `buf` (NUL-terminated): OSSL_PARAM
 * strings need not end in NUL. 1 on success. */
static int string_of(const OSSL_PARAM *p, char *buf, size_t size) {
    return OSSL_PARAM_get_utf8_string(p, &buf, size);
}

/* The value named `name` in `table` into `*value`; 0 if none is. */
static int value_of_name(const named_value *table, size_t count, const char *name, int *value) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(name, table[i].name) == 0) {
            *value = table[i].value;
            return 1;
        }
    }
    return 0;
}

/* The name of `value` in `table`, or NULL. */
static const char *name_of_value(const named_value *table, size_t count, int value) {
    for (size_t i = 0; i < count; i++) {
        if (table[i].value == value) {
            return table[i].name;
        }
    }
    return NULL;
}

int obx_pad_mode_from_param(const OSSL_PARAM *p, int *pad_mode) {
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        char name[16];
        return string_of(p, name, sizeof(name)) &&
               value_of_name(PAD_MODES, COUNT(PAD_MODES), name, pad_mode);
    }
    return OSSL_PARAM_get_int(p, pad_mode);
}

int obx_pad_mode_to_param(OSSL_PARAM *p, int pad_mode) {
    if (p->data_type != OSSL_PARAM_UTF8_STRING) {
        return OSSL_PARAM_set_int(p, pad_mode);
    }
    const char *name = name_of_value(PAD_MODES, COUNT(PAD_MODES), pad_mode);
    return name != NULL && OSSL_PARAM_set_utf8_string(p, name);
}

int obx_saltlen_from_param(const OSSL_PARAM *p, int *saltlen) {
    if (p->data_type == OSSL_PARAM_UTF8_STRING) {
        char text[16];
        if (!string_of(p, text, sizeof(text))) {
            return 0;
        }
        if (value_of_name(SALT_LENGTHS, COUNT(SALT_LENGTHS), text, saltlen)) {
            return 1;
        }
        /* A number written out. */
        char *end;
        long value = strtol(text, &end, 10);
        if (end == text || *end != '\0' || value < 0 || value > 65535) {
            return 0;
        }
        *saltlen = (int)value;
        return 1;
    }
    int value;
    if (!OSSL_PARAM_get_int(p, &value) || value < RSA_PSS_SALTLEN_MAX) {
        return 0;
    }
    *saltlen = value;
    return 1;
}

int obx_saltlen_to_param(OSSL_PARAM *p, int saltlen) {
    if (p->data_type != OSSL_PARAM_UTF8_STRING) {
        return OSSL_PARAM_set_int(p, saltlen);
    }
    const char *name = name_of_value(SALT_LENGTHS, COUNT(SALT_LENGTHS), saltlen);
    if (name != NULL) {
        return OSSL_PARAM_set_utf8_string(p, name);
    }
    char number[16];
    snprintf(number, sizeof(number), "%d", saltlen);
    return OSSL_PARAM_set_utf8_string(p, number);
}

int obx_digest_from_params(obx_prov *prov, const OSSL_PARAM params[], const char *name,
                           const char *properties_name, EVP_MD **md) {
    *md = NULL;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
    if (p == NULL) {
        return 1;
    }
    char digest[64], properties[256];
    const OSSL_PARAM *pp = OSSL_PARAM_locate_const(params, properties_name);
    if (!string_of(p, digest, sizeof(digest)) ||
        (pp != NULL && !string_of(pp, properties, sizeof(properties)))) {
        return 0;
    }
    *md = EVP_MD_fetch(prov->libctx, digest, pp != NULL ? properties : NULL);
    return *md != NULL;
}

void obx_replace_digest(EVP_MD **slot, EVP_MD *md) {
    if (md != NULL) {
        EVP_MD_free(*slot);
        *slot = md;
    }
}
