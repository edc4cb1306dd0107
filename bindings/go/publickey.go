package oblivex

// #include <oblivex.h>
import "C"

import "bytes"

// PublicKey is a validated public key of a suite: the element k·B of an
// OPRF server (OPRFServer.PublicKey) or of a shared key
// (Commitments.PublicKey), or one received and checked with
// ParsePublicKey. VOPRF, POPRF and checked clients are made with it;
// ElGamal encrypts to it. Immutable; safe for concurrent use.
type PublicKey struct {
	suite   Suite
	encoded []byte
}

// ParsePublicKey decodes and validates a public key of suite (an element
// encoding, Suite.ElementLen bytes): ErrUnknownSuite, ErrBadLength, or
// ErrInvalidElement for an encoding that is not canonical, not in the
// prime-order group, or the identity.
func ParsePublicKey(suite Suite, b []byte) (*PublicKey, error) {
	if err := suite.known(); err != nil {
		return nil, err
	}
	if err := check(C.oblivex_suite_check_element(C.oblivex_suite(suite), in(b), size(len(b)))); err != nil {
		return nil, err
	}
	return &PublicKey{suite: suite, encoded: append([]byte(nil), b...)}, nil
}

// Suite is the key's suite.
func (k *PublicKey) Suite() Suite { return k.suite }

// Bytes is the key's encoding (a copy).
func (k *PublicKey) Bytes() []byte { return append([]byte(nil), k.encoded...) }

// Equal reports whether k and other are the same key of the same suite.
func (k *PublicKey) Equal(other *PublicKey) bool {
	if k == nil || other == nil {
		return k == other
	}
	return k.suite == other.suite && bytes.Equal(k.encoded, other.encoded)
}

// matchKey checks a client's public key against its suite: ErrSuiteMismatch
// for a key of another suite.
func matchKey(suite Suite, key *PublicKey) error {
	if key != nil && key.suite != suite {
		return ErrSuiteMismatch
	}
	return nil
}
