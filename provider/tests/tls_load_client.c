/* A TLS load client for scripts/provider-tls-load: full handshakes, one
 * after another, against HOST:PORT for SECONDS, each one verifying the
 * server's certificate (SSL_VERIFY_PEER against CAFILE, and its name
 * against HOST). `openssl s_time` cannot stand in for it: it does not
 * verify the certificate, whatever `-verify` says.
 *
 *     tls_load_client HOST PORT CAFILE SECONDS HANDSHAKE
 *
 * HANDSHAKE is tls1_3 (ECDHE, an RSA-PSS signature), tls1_2 (ECDHE-RSA)
 * or tls1_2-rsa (the RSA key exchange). No session is resumed: each
 * connection is a new SSL object with the client's session cache off.
 * Prints one line, "tls_load_client: N handshakes in S s, F failed", and
 * the first failure's reason; exits 0 only when every handshake succeeded
 * (at least one). */
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The client context for one handshake kind, or NULL for an unknown one. */
static SSL_CTX *context_for(const char *handshake, const char *ca_file) {
    int version;
    const char *ciphers = NULL;
    if (strcmp(handshake, "tls1_3") == 0) {
        version = TLS1_3_VERSION;
    } else if (strcmp(handshake, "tls1_2") == 0) {
        version = TLS1_2_VERSION;
        ciphers = "ECDHE-RSA-AES128-GCM-SHA256";
    } else if (strcmp(handshake, "tls1_2-rsa") == 0) {
        version = TLS1_2_VERSION;
        ciphers = "AES128-GCM-SHA256";
    } else {
        fprintf(stderr, "tls_load_client: unknown handshake %s (tls1_3, tls1_2, tls1_2-rsa)\n",
                handshake);
        return NULL;
    }
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    if (ctx == NULL || !SSL_CTX_set_min_proto_version(ctx, version) ||
        !SSL_CTX_set_max_proto_version(ctx, version) ||
        (ciphers != NULL && !SSL_CTX_set_cipher_list(ctx, ciphers)) ||
        !SSL_CTX_load_verify_locations(ctx, ca_file, NULL)) {
        fprintf(stderr, "tls_load_client: cannot set up the client context (CA file %s)\n",
                ca_file);
        ERR_print_errors_fp(stderr);
        SSL_CTX_free(ctx);
        return NULL;
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    return ctx;
}

/* A handshake that stalls this long fails instead of hanging the run. */
#define IO_TIMEOUT_SECONDS 5

/* A TCP connection to the first of the server's addresses that takes one
 * (localhost may resolve to ::1 before 127.0.0.1), with send and receive
 * timeouts; or -1. */
static int connect_to(const struct addrinfo *server) {
    const struct timeval timeout = {.tv_sec = IO_TIMEOUT_SECONDS};
    for (const struct addrinfo *a = server; a != NULL; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) == 0 &&
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout) == 0 &&
            connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            return fd;
        }
        close(fd);
    }
    return -1;
}

/* One full handshake with the certificate verified. On failure, writes
 * its reason into `why` (when `why` is still empty). */
static int handshake_once(SSL_CTX *ctx, const struct addrinfo *server, const char *host,
                          char *why, size_t why_len) {
    int fd = connect_to(server);
    if (fd < 0) {
        if (why[0] == '\0') snprintf(why, why_len, "cannot connect");
        return 0;
    }
    SSL *ssl = SSL_new(ctx);
    int set_up = ssl != NULL && SSL_set_tlsext_host_name(ssl, host) && SSL_set1_host(ssl, host) &&
                 SSL_set_fd(ssl, fd);
    int connected = set_up ? SSL_connect(ssl) : 0;
    int ok = connected == 1 && SSL_get_verify_result(ssl) == X509_V_OK;
    if (!ok && why[0] == '\0') {
        long verify = ssl != NULL ? SSL_get_verify_result(ssl) : X509_V_OK;
        unsigned long error = ERR_peek_last_error();
        if (verify != X509_V_OK) {
            snprintf(why, why_len, "certificate not verified: %s",
                     X509_verify_cert_error_string(verify));
        } else if (error != 0) {
            snprintf(why, why_len, "handshake failed: %s", ERR_error_string(error, NULL));
        } else {
            /* No OpenSSL error: the I/O timed out, or the connection closed. */
            int kind = set_up ? SSL_get_error(ssl, connected) : SSL_ERROR_SSL;
            snprintf(why, why_len, "handshake failed: %s",
                     !set_up ? "cannot set up the connection"
                     : kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE
                         ? "no answer within the timeout"
                     : kind == SSL_ERROR_SYSCALL || kind == SSL_ERROR_ZERO_RETURN
                         ? "the connection closed"
                         : "no reason given");
        }
    }
    ERR_clear_error();
    if (ok) SSL_shutdown(ssl);
    SSL_free(ssl);
    close(fd);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s HOST PORT CAFILE SECONDS HANDSHAKE\n", argv[0]);
        return 2;
    }
    const char *host = argv[1], *port = argv[2], *ca_file = argv[3];
    double seconds = atof(argv[4]);
    if (!(seconds > 0)) {
        fprintf(stderr, "tls_load_client: SECONDS must be positive, not %s\n", argv[4]);
        return 2;
    }
    /* A server that closes mid-handshake must count as a failure, not
     * end this process with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    SSL_CTX *ctx = context_for(argv[5], ca_file);
    if (ctx == NULL) return 2;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *server = NULL;
    if (getaddrinfo(host, port, &hints, &server) != 0) {
        fprintf(stderr, "tls_load_client: cannot resolve %s:%s\n", host, port);
        SSL_CTX_free(ctx);
        return 2;
    }
    char why[256] = "";
    unsigned long handshakes = 0, failed = 0;
    double start = now_seconds(), elapsed = 0;
    while (elapsed < seconds) {
        if (handshake_once(ctx, server, host, why, sizeof why)) {
            handshakes++;
        } else {
            failed++;
        }
        elapsed = now_seconds() - start;
    }
    printf("tls_load_client: %lu handshakes in %.3f s, %lu failed\n", handshakes, elapsed, failed);
    if (failed > 0) printf("tls_load_client: first failure: %s\n", why);
    freeaddrinfo(server);
    SSL_CTX_free(ctx);
    return failed == 0 && handshakes > 0 ? 0 : 1;
}
