package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// authenticator names the client of a request: the SHA-256 of its
// verified TLS client certificate's public key (SubjectPublicKeyInfo), or
// the name its bearer token has in the token file. Not the certificate's
// common name: two certificates may share one (and would share a quota),
// and a name is the certificate holder's to choose. The server keeps only
// the tokens' SHA-256 hashes.
type authenticator struct {
	tokens map[[sha256.Size]byte]string // SHA-256(token) -> client name
}

// minTokenLen refuses guessable tokens.
const minTokenLen = 16

// maxClientNameLen bounds a token client's name (a certificate client's is
// a fixed-length hash): the quota journal records names by length.
const maxClientNameLen = 255

// loadTokens reads a token file: one client a line, "NAME TOKEN"; blank
// lines and lines starting with # are skipped. The file is a secret
// (refused if others may read it).
func loadTokens(path string) (map[[sha256.Size]byte]string, error) {
	b, err := readSecretFile(path)
	if err != nil {
		return nil, err
	}
	defer wipe(b)
	tokens := map[[sha256.Size]byte]string{}
	scanner := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; scanner.Scan(); line++ {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 2 || len(fields[1]) < minTokenLen || len(fields[0]) > maxClientNameLen {
			return nil, fmt.Errorf("%s:%d: want \"NAME TOKEN\", the name at most %d bytes, the token at least %d characters",
				path, line, maxClientNameLen, minTokenLen)
		}
		hash := sha256.Sum256([]byte(fields[1]))
		if _, dup := tokens[hash]; dup {
			return nil, fmt.Errorf("%s:%d: a token given twice", path, line)
		}
		tokens[hash] = fields[0]
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%s: no token", path)
	}
	return tokens, scanner.Err()
}

// errUnauthenticated is a request with neither a verified certificate nor
// a known token.
var errUnauthenticated = errors.New("no valid client certificate or bearer token")

// client names r's client.
func (a *authenticator) client(r *http.Request) (string, error) {
	if r.TLS != nil && len(r.TLS.VerifiedChains) > 0 {
		return certificateClient(r.TLS.VerifiedChains[0][0]), nil
	}
	header := r.Header.Get("Authorization")
	if !strings.HasPrefix(header, "Bearer ") || a.tokens == nil {
		return "", errUnauthenticated
	}
	// Looked up by its hash: what an attacker controls of the lookup is
	// a SHA-256 output, so its timing tells nothing about the tokens.
	hash := sha256.Sum256([]byte(strings.TrimPrefix(header, "Bearer ")))
	name, found := a.tokens[hash]
	if !found {
		return "", errUnauthenticated
	}
	return "token:" + name, nil
}

// certificateClient is the name of a certificate's holder: "cert:" and the
// hex SHA-256 of its public key, what `openssl x509 -in CERT -noout
// -pubkey | openssl pkey -pubin -outform der | sha256sum` prints.
func certificateClient(leaf *x509.Certificate) string {
	hash := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	return "cert:" + hex.EncodeToString(hash[:])
}
