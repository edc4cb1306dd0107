package oblivex

// #include <oblivex.h>
import "C"

import "fmt"

// Suite is a ciphersuite: a prime-order group with its hash. The first two
// are RFC 9497's; the others are this library's, built the same way.
type Suite int

// The suites.
const (
	// SuiteRistretto255 is ristretto255-SHA512 (RFC 9497 §4.1).
	SuiteRistretto255 Suite = C.OBLIVEX_SUITE_RISTRETTO255_SHA512
	// SuiteP256 is P256-SHA256 (RFC 9497 §4.3).
	SuiteP256 Suite = C.OBLIVEX_SUITE_P256_SHA256
	// SuiteBLS12381G1 is BLS12381G1-SHA256 (the group of the blind BLS
	// signatures' key shares).
	SuiteBLS12381G1 Suite = C.OBLIVEX_SUITE_BLS12381G1_SHA256
	// SuiteFFDHE2048 is FFDHE2048-SHA512 (the RFC 7919 group).
	SuiteFFDHE2048 Suite = C.OBLIVEX_SUITE_FFDHE2048_SHA512
	// SuiteFFDHE3072 is FFDHE3072-SHA512.
	SuiteFFDHE3072 Suite = C.OBLIVEX_SUITE_FFDHE3072_SHA512
	// SuiteFFDHE4096 is FFDHE4096-SHA512.
	SuiteFFDHE4096 Suite = C.OBLIVEX_SUITE_FFDHE4096_SHA512
)

// Suites returns every suite, in the order of their values.
func Suites() []Suite {
	return []Suite{SuiteRistretto255, SuiteP256, SuiteBLS12381G1, SuiteFFDHE2048, SuiteFFDHE3072, SuiteFFDHE4096}
}

// String is the suite's identifier, e.g. "ristretto255-SHA512".
func (s Suite) String() string {
	switch s {
	case SuiteRistretto255:
		return "ristretto255-SHA512"
	case SuiteP256:
		return "P256-SHA256"
	case SuiteBLS12381G1:
		return "BLS12381G1-SHA256"
	case SuiteFFDHE2048:
		return "FFDHE2048-SHA512"
	case SuiteFFDHE3072:
		return "FFDHE3072-SHA512"
	case SuiteFFDHE4096:
		return "FFDHE4096-SHA512"
	}
	return fmt.Sprintf("Suite(%d)", int(s))
}

// ElementLen is the size of an encoded group element, of a public key, and
// of every element a request or response holds (0 for an unknown suite).
func (s Suite) ElementLen() int { return int(C.oblivex_suite_element_len(C.oblivex_suite(s))) }

// ScalarLen is the size of an encoded scalar: a secret key (0 for an
// unknown suite).
func (s Suite) ScalarLen() int { return int(C.oblivex_suite_scalar_len(C.oblivex_suite(s))) }

// OutputLen is the size of one PRF output and of a KEM secret (0 for an
// unknown suite).
func (s Suite) OutputLen() int { return int(C.oblivex_suite_output_len(C.oblivex_suite(s))) }

// ProofLen is the size of a VOPRF/POPRF proof (0 for an unknown suite).
func (s Suite) ProofLen() int { return int(C.oblivex_suite_proof_len(C.oblivex_suite(s))) }

// known is nil for a suite the library knows, ErrUnknownSuite otherwise.
func (s Suite) known() error {
	if s.ElementLen() == 0 {
		return ErrUnknownSuite
	}
	return nil
}

// Mode is a protocol mode of RFC 9497. Each mode has its own server,
// client and batch types (OPRFServer, VOPRFServer, POPRFServer, ...);
// their Mode method names it.
type Mode int

// The modes.
const (
	// ModeOPRF has no proof: the server's answer is not verified.
	ModeOPRF Mode = C.OBLIVEX_OPRF_MODE_OPRF
	// ModeVOPRF has one DLEQ proof per batch against the server's public
	// key.
	ModeVOPRF Mode = C.OBLIVEX_OPRF_MODE_VOPRF
	// ModePOPRF is VOPRF with a public info string that tweaks the key.
	ModePOPRF Mode = C.OBLIVEX_OPRF_MODE_POPRF
)

// String is the mode's name: "OPRF", "VOPRF" or "POPRF".
func (m Mode) String() string {
	switch m {
	case ModeOPRF:
		return "OPRF"
	case ModeVOPRF:
		return "VOPRF"
	case ModePOPRF:
		return "POPRF"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Check is the relation a checked batch hides in its request (see
// CheckedClient).
type Check int

// The checks.
const (
	// CheckCommittedKey: every answer must use the key of the server's
	// public key (the default choice; the client is made with that key).
	CheckCommittedKey Check = C.OBLIVEX_CHECK_COMMITTED_KEY
	// CheckKeyFree: one key, whichever, for the whole batch. Needs no
	// public key but proves less (a server may use another key
	// throughout), and pads batches of fewer than 256/κ inputs.
	CheckKeyFree Check = C.OBLIVEX_CHECK_KEY_FREE
)

// String is the check's name: "CommittedKey" or "KeyFree".
func (c Check) String() string {
	switch c {
	case CheckCommittedKey:
		return "CommittedKey"
	case CheckKeyFree:
		return "KeyFree"
	}
	return fmt.Sprintf("Check(%d)", int(c))
}

// ElGamalTarget is what a threshold ElGamal batch recovers (see
// ElGamalClient).
type ElGamalTarget int

// The targets.
const (
	// ElGamalPlaintexts: the plaintexts (element encodings) of ciphertexts
	// c1 || c2 (two element encodings each, from ElGamalEncrypt).
	ElGamalPlaintexts ElGamalTarget = C.OBLIVEX_ELGAMAL_PLAINTEXTS
	// ElGamalKEMSecrets: the shared secrets (Suite.OutputLen bytes each)
	// of KEM encapsulations (one element encoding each, from
	// ElGamalEncapsulate).
	ElGamalKEMSecrets ElGamalTarget = C.OBLIVEX_ELGAMAL_KEM_SECRETS
)

// String is the target's name: "Plaintexts" or "KEMSecrets".
func (t ElGamalTarget) String() string {
	switch t {
	case ElGamalPlaintexts:
		return "Plaintexts"
	case ElGamalKEMSecrets:
		return "KEMSecrets"
	}
	return fmt.Sprintf("ElGamalTarget(%d)", int(t))
}

// Limits of the library.
const (
	// KappaMin is the smallest κ (bits of the secret verification factors
	// of the checked and threshold clients) accepted; κ 0 picks the
	// default, 64. A cheating server passes a check with probability at
	// most 2^-κ.
	KappaMin = C.OBLIVEX_KAPPA_MIN
	// KappaMax is the largest κ accepted.
	KappaMax = C.OBLIVEX_KAPPA_MAX
	// MaxInputLen is the longest OPRF input, POPRF info or message to
	// sign, in bytes.
	MaxInputLen = C.OBLIVEX_MAX_INPUT_LEN
	// MaxParties is the largest number of parties of a sharing (party ids
	// are 1..MaxParties).
	MaxParties = C.OBLIVEX_MAX_PARTIES
	// MaxModulusBits is the largest modulus of a ModulusContext, in bits.
	MaxModulusBits = C.OBLIVEX_MAX_MODULUS_BITS
	// MaxOperandBytes is the longest base or exponent of a batch
	// exponentiation, in bytes.
	MaxOperandBytes = C.OBLIVEX_MAX_OPERAND_BYTES
)

// checkKappa is nil for κ 0 (the default) or KappaMin..KappaMax.
func checkKappa(kappa uint32) error {
	if kappa != 0 && (kappa < KappaMin || kappa > KappaMax) {
		return ErrInvalidKappa
	}
	return nil
}

// checkQuorum is nil for no quorum or for exactly t distinct ids in
// 1..MaxParties, as the library requires; ErrInvalidPartyID otherwise.
func checkQuorum(quorum []uint16, t int) error {
	if len(quorum) == 0 {
		return nil
	}
	if len(quorum) != t {
		return ErrInvalidPartyID
	}
	seen := make(map[uint16]bool, len(quorum))
	for _, id := range quorum {
		if id == 0 || int(id) > MaxParties || seen[id] {
			return ErrInvalidPartyID
		}
		seen[id] = true
	}
	return nil
}

// Version is the version of the linked library, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.oblivex_version()) }

// BackendName is the arithmetic backend that runs batch exponentiations in
// this process: "portable", "mulx", "avx2" or "ifma", chosen once from the
// environment variable OBLIVEX_BACKEND (portable, mulx, avx2, ifma or auto, the
// default: the fastest this CPU runs), or
// "unsupported" when that names a backend this CPU cannot run (then
// exponentiations fail with ErrUnsupportedBackend).
func BackendName() string { return C.GoString(C.oblivex_backend_name()) }

// SetThreads sets how many threads a large batch exponentiation may use,
// for the whole process: 1 (the default) runs everything in the calling
// goroutine's thread; n <= 0 restores the default (from the environment
// variable OBLIVEX_THREADS, else 1); values above 1024 are clamped.
func SetThreads(n int) {
	if n < 0 {
		n = 0
	}
	C.oblivex_set_threads(C.size_t(n))
}

// Threads is the thread count in effect (see SetThreads).
func Threads() int { return int(C.oblivex_threads()) }
