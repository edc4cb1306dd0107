package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// suiteKeys is what the server holds for one suite: either a single key
// (one handle per RFC 9497 mode, all with the same scalar) or a key share,
// and the public values it serves. The secrets live only in the library's
// handles, which wipe them on Close.
type suiteKeys struct {
	suite oblivex.Suite
	oprf  *oblivex.OPRFServer
	voprf *oblivex.VOPRFServer
	poprf *oblivex.POPRFServer
	share *oblivex.KeyShare
	// publicKey is served at PublicKeyEndpoint: the key's k·B, the shared
	// key's, or the BLS public key.
	publicKey []byte
	// commitments are served at CommitmentsEndpoint (a share only): the
	// sharing's commitments, or the BLS key set.
	commitments []byte
}

// close wipes every key handle.
func (k *suiteKeys) close() {
	for _, c := range []io.Closer{k.oprf, k.voprf, k.poprf, k.share} {
		if c != nil && !isNilHandle(c) {
			c.Close()
		}
	}
}

// isNilHandle is true for a typed nil in the interface.
func isNilHandle(c io.Closer) bool {
	switch h := c.(type) {
	case *oblivex.OPRFServer:
		return h == nil
	case *oblivex.VOPRFServer:
		return h == nil
	case *oblivex.POPRFServer:
		return h == nil
	case *oblivex.KeyShare:
		return h == nil
	}
	return false
}

// maxKeyFile bounds what is read of a key or public file.
const maxKeyFile = 1 << 20

// errExposed refuses a secret file that others than its owner may read.
var errExposed = errors.New("readable or writable by group or others (chmod 600 it)")

// readSecretFile reads a file holding a secret (a key, a share, a token
// list, a TLS private key): refused unless only its owner may access it.
// The caller wipes the bytes when done.
func readSecretFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: mode %v: %w", path, info.Mode().Perm(), errExposed)
	}
	return readBounded(f, path)
}

// readPublicFile reads a file of public values (commitments, key set).
func readPublicFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, path)
}

func readBounded(f *os.File, path string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxKeyFile {
		wipe(b)
		return nil, fmt.Errorf("%s: longer than %d bytes", path, maxKeyFile)
	}
	return b, nil
}

func wipe(b []byte) {
	for i := range b {
		b[i] = 0
	}
}

// loadKey makes the three servers of suite from a key file holding the
// secret scalar (Suite.ScalarLen bytes, the library's encoding).
func loadKey(suite oblivex.Suite, path string) (*suiteKeys, error) {
	secret, err := readSecretFile(path)
	if err != nil {
		return nil, err
	}
	defer wipe(secret)
	k := &suiteKeys{suite: suite}
	if k.oprf, err = oblivex.NewOPRFServer(suite, secret); err == nil {
		if k.voprf, err = oblivex.NewVOPRFServer(suite, secret); err == nil {
			k.poprf, err = oblivex.NewPOPRFServer(suite, secret)
		}
	}
	if err != nil {
		k.close()
		return nil, fmt.Errorf("%s: not a %v key: %w", path, suite, err) // the error names no byte of it
	}
	k.publicKey = k.oprf.PublicKey().Bytes()
	return k, nil
}

// loadShare reads a key share of suite (the library's encoding: party id,
// then scalar) and the public file that goes with it: the sharing's
// commitments, or for a blind BLS signer (blsKeySet) the key set. The
// share must match them.
func loadShare(suite oblivex.Suite, path, publicPath string, blsKeySet bool) (*suiteKeys, error) {
	public, err := readPublicFile(publicPath)
	if err != nil {
		return nil, err
	}
	commitmentBytes, publicKey, err := sharingPublic(suite, public, blsKeySet)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", publicPath, err)
	}
	commitments, err := oblivex.ParseCommitments(suite, commitmentBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", publicPath, err)
	}
	defer commitments.Close()
	if publicKey == nil {
		publicKey = commitments.PublicKey().Bytes()
	}
	encoded, err := readSecretFile(path)
	if err != nil {
		return nil, err
	}
	share, err := oblivex.ParseKeyShare(suite, encoded)
	wipe(encoded)
	if err != nil {
		return nil, fmt.Errorf("%s: not a %v key share: %w", path, suite, err)
	}
	if err := commitments.VerifyShare(share); err != nil {
		share.Close()
		return nil, fmt.Errorf("%s: the share does not match %s: %w", path, publicPath, err)
	}
	if share, err = tamperShare(share); err != nil {
		return nil, err
	}
	return &suiteKeys{suite: suite, share: share, publicKey: publicKey, commitments: public}, nil
}

// sharingPublic cuts a public file into the commitments to check a share
// against and the public key to serve (nil: the commitments' own). A BLS
// key set (docs/PROTOCOLS.md §7) is checked whole, and its G1
// commitments are its tail.
func sharingPublic(suite oblivex.Suite, public []byte, blsKeySet bool) ([]byte, []byte, error) {
	if !blsKeySet {
		return public, nil, nil
	}
	if suite != oblivex.SuiteBLS12381G1 {
		return nil, nil, fmt.Errorf("a BLS key set is for suite %v", oblivex.SuiteBLS12381G1)
	}
	keySet, err := oblivex.ParseBLSKeySet(public)
	if err != nil {
		return nil, nil, err
	}
	defer keySet.Close()
	tail := keySet.Threshold() * oblivex.BLSSignatureLen
	return public[len(public)-tail:], keySet.PublicKey().Bytes(), nil
}
