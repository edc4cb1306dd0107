package oblivex

// #include <oblivex.h>
import "C"

import "fmt"

// Suite is a prime-order group with its hash (RFC 9497 suites, and this
// library's own).
type Suite int

// The suites.
const (
	Ristretto255SHA512 Suite = C.OBLIVEX_SUITE_RISTRETTO255_SHA512
	P256SHA256         Suite = C.OBLIVEX_SUITE_P256_SHA256
	BLS12381G1SHA256   Suite = C.OBLIVEX_SUITE_BLS12381G1_SHA256
	FFDHE2048SHA512    Suite = C.OBLIVEX_SUITE_FFDHE2048_SHA512
	FFDHE3072SHA512    Suite = C.OBLIVEX_SUITE_FFDHE3072_SHA512
	FFDHE4096SHA512    Suite = C.OBLIVEX_SUITE_FFDHE4096_SHA512
)

// Suites lists every suite.
var Suites = []Suite{Ristretto255SHA512, P256SHA256, BLS12381G1SHA256, FFDHE2048SHA512, FFDHE3072SHA512, FFDHE4096SHA512}

func (s Suite) String() string {
	switch s {
	case Ristretto255SHA512:
		return "ristretto255-SHA512"
	case P256SHA256:
		return "P256-SHA256"
	case BLS12381G1SHA256:
		return "BLS12381G1-SHA256"
	case FFDHE2048SHA512:
		return "FFDHE2048-SHA512"
	case FFDHE3072SHA512:
		return "FFDHE3072-SHA512"
	case FFDHE4096SHA512:
		return "FFDHE4096-SHA512"
	}
	return fmt.Sprintf("Suite(%d)", int(s))
}

// ElementLen is the size of an encoded group element (0 if unknown).
func (s Suite) ElementLen() int { return int(C.oblivex_suite_element_len(C.int(s))) }

// ScalarLen is the size of an encoded scalar (a key).
func (s Suite) ScalarLen() int { return int(C.oblivex_suite_scalar_len(C.int(s))) }

// OutputLen is the size of one PRF output (and of a KEM secret).
func (s Suite) OutputLen() int { return int(C.oblivex_suite_output_len(C.int(s))) }

// ProofLen is the size of a VOPRF/POPRF proof.
func (s Suite) ProofLen() int { return int(C.oblivex_suite_proof_len(C.int(s))) }

// Mode is an RFC 9497 protocol variant.
type Mode int

// The modes.
const (
	ModeOPRF  Mode = C.OBLIVEX_OPRF_MODE_OPRF
	ModeVOPRF Mode = C.OBLIVEX_OPRF_MODE_VOPRF
	ModePOPRF Mode = C.OBLIVEX_OPRF_MODE_POPRF
)

// Check is the relation a checked batch hides (see CheckedClient).
type Check int

// The checks.
const (
	// CommittedKey: every answer used the key of the server's public key.
	CommittedKey Check = C.OBLIVEX_CHECK_COMMITTED_KEY
	// KeyFree: one key, whichever, for the whole batch (needs no public
	// key; weaker, see the library documentation).
	KeyFree Check = C.OBLIVEX_CHECK_KEY_FREE
)

// BackendName is the arithmetic backend in use ("ifma" or "portable").
func BackendName() string { return C.GoString(C.oblivex_backend_name()) }

// SetThreads sets how many threads large exponentiation batches may use
// (default 1).
func SetThreads(n int) { C.oblivex_set_threads(C.size_t(n)) }

// Version is the library's version.
func Version() string { return C.GoString(C.oblivex_version()) }
