/*
 * The DER AlgorithmIdentifier of a signature context's algorithm (its
 * "algorithm-id" parameter), which X.509, CMS and OCSP signers write next
 * to the signature: sha*WithRSAEncryption (with NULL parameters) for
 * PKCS #1 v1.5, id-RSASSA-PSS with RSASSA-PSS-params (RFC 4055) for PSS.
 * Built with OpenSSL's ASN.1 types.
 */
#include "provider.h"

#include <openssl/asn1.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>

/* The salt length a PSS signature gets for `saltlen` (RSA_PSS_SALTLEN_*
 * or a length), as RSA_padding_add_PKCS1_PSS_mgf1 resolves it. */
static int resolved_saltlen(const RSA *rsa, const EVP_MD *md, int saltlen) {
    int md_len = EVP_MD_get_size(md);
    if (saltlen == RSA_PSS_SALTLEN_DIGEST) {
        return md_len;
    }
    if (saltlen == RSA_PSS_SALTLEN_AUTO || saltlen == RSA_PSS_SALTLEN_MAX) {
        int em_len = RSA_size(rsa) - ((RSA_bits(rsa) - 1) % 8 == 0 ? 1 : 0);
        return em_len - md_len - 2;
    }
    return saltlen;
}

/* `alg` = the digest's identifier with NULL parameters, as the default
 * provider writes it inside RSASSA-PSS-params (RFC 4055 accepts either). */
static int set_digest(X509_ALGOR *alg, const EVP_MD *md) {
    return X509_ALGOR_set0(alg, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL, NULL) == 1;
}

/* RSASSA-PSS-params as an ASN1_STRING (a SEQUENCE), defaults omitted. */
static ASN1_STRING *pss_params(const RSA *rsa, const EVP_MD *md, const EVP_MD *mgf1, int saltlen) {
    RSA_PSS_PARAMS *pss = RSA_PSS_PARAMS_new();
    ASN1_STRING *mgf1_param = NULL, *packed = NULL;
    X509_ALGOR *mgf1_md = NULL;
    int ok = pss != NULL;
    if (ok && EVP_MD_get_type(md) != NID_sha1) {
        ok = (pss->hashAlgorithm = X509_ALGOR_new()) != NULL && set_digest(pss->hashAlgorithm, md);
    }
    if (ok && EVP_MD_get_type(mgf1) != NID_sha1) {
        ok = (mgf1_md = X509_ALGOR_new()) != NULL && set_digest(mgf1_md, mgf1) &&
             (mgf1_param = ASN1_item_pack(mgf1_md, ASN1_ITEM_rptr(X509_ALGOR), NULL)) != NULL &&
             (pss->maskGenAlgorithm = X509_ALGOR_new()) != NULL &&
             X509_ALGOR_set0(pss->maskGenAlgorithm, OBJ_nid2obj(NID_mgf1), V_ASN1_SEQUENCE,
                             mgf1_param) == 1;
        if (ok) {
            mgf1_param = NULL; /* owned by maskGenAlgorithm */
        }
    }
    int salt = resolved_saltlen(rsa, md, saltlen);
    if (ok && salt != 20) {
        ok = salt >= 0 && (pss->saltLength = ASN1_INTEGER_new()) != NULL &&
             ASN1_INTEGER_set(pss->saltLength, salt) == 1;
    }
    if (ok) {
        packed = ASN1_item_pack(pss, ASN1_ITEM_rptr(RSA_PSS_PARAMS), NULL);
    }
    ASN1_STRING_free(mgf1_param);
    X509_ALGOR_free(mgf1_md);
    RSA_PSS_PARAMS_free(pss);
    return packed;
}

int obx_algorithm_id_der(const RSA *rsa, int pad_mode, const EVP_MD *md, const EVP_MD *mgf1,
                         int saltlen, unsigned char **der, int *der_len) {
    if (md == NULL) {
        return 0; /* a signature without a digest has no identifier */
    }
    X509_ALGOR *alg = X509_ALGOR_new();
    int ok = alg != NULL;
    if (ok && pad_mode == RSA_PKCS1_PADDING) {
        int sig_nid;
        ok = OBJ_find_sigid_by_algs(&sig_nid, EVP_MD_get_type(md), NID_rsaEncryption) == 1 &&
             X509_ALGOR_set0(alg, OBJ_nid2obj(sig_nid), V_ASN1_NULL, NULL) == 1;
    } else if (ok && pad_mode == RSA_PKCS1_PSS_PADDING) {
        ASN1_STRING *params = pss_params(rsa, md, mgf1 != NULL ? mgf1 : md, saltlen);
        ok = params != NULL &&
             X509_ALGOR_set0(alg, OBJ_nid2obj(NID_rsassaPss), V_ASN1_SEQUENCE, params) == 1;
        if (!ok) {
            ASN1_STRING_free(params);
        }
    } else {
        ok = 0;
    }
    *der = NULL;
    *der_len = ok ? i2d_X509_ALGOR(alg, der) : -1;
    X509_ALGOR_free(alg);
    return *der_len > 0;
}
