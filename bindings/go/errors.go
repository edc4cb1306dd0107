package oblivex

// #include <oblivex.h>
import "C"

import (
	"errors"
	"fmt"
)

// statusError is a library status code: each code the binding can return
// has one sentinel value, compared with errors.Is.
type statusError struct {
	code    C.oblivex_status
	message string
}

// Error is "oblivex: " and the library's description of the status.
func (e *statusError) Error() string { return "oblivex: " + e.message }

func sentinel(code C.oblivex_status) *statusError {
	return &statusError{code: code, message: C.GoString(C.oblivex_status_str(code))}
}

// The errors of the package: one per status code of the C API that it can
// return, plus ErrClosed. OBLIVEX_ERR_BUFFER_TOO_SMALL has none (the
// package sizes every buffer), nor OBLIVEX_ERR_UNKNOWN_MODE (each mode has
// its own types, which pass only their own mode), and since the package never passes NULL
// where C needs a pointer, ErrNullPointer is its own answer to a nil
// argument. Compare with errors.Is.
var (
	// ErrNullPointer: a required handle (or *big.Int) argument is nil.
	ErrNullPointer error = sentinel(C.OBLIVEX_ERR_NULL_POINTER)
	// ErrBadLength: a length does not fit the operation (not a whole
	// number of elements, counts that disagree, an input, operand or batch
	// longer than supported).
	ErrBadLength error = sentinel(C.OBLIVEX_ERR_BAD_LENGTH)
	// ErrEmptyInput: a batch of zero items, or an operand of zero bytes.
	ErrEmptyInput error = sentinel(C.OBLIVEX_ERR_EMPTY_INPUT)
	// ErrZeroModulus: the modulus is zero.
	ErrZeroModulus error = sentinel(C.OBLIVEX_ERR_ZERO_MODULUS)
	// ErrEvenModulus: the modulus is even (use math/big's Exp for those).
	ErrEvenModulus error = sentinel(C.OBLIVEX_ERR_EVEN_MODULUS)
	// ErrModulusTooLarge: the modulus is longer than MaxModulusBits.
	ErrModulusTooLarge error = sentinel(C.OBLIVEX_ERR_MODULUS_TOO_LARGE)
	// ErrUnsupportedBackend: the environment variable OBLIVEX_BACKEND
	// names a backend that is unknown or that this CPU cannot run, or
	// OBLIVEX_AVX2_PROFILE a tuning profile that is unknown.
	ErrUnsupportedBackend error = sentinel(C.OBLIVEX_ERR_UNSUPPORTED_BACKEND)
	// ErrInvalidElement: an encoded group element is not canonical, not in
	// the prime-order group, or the identity.
	ErrInvalidElement error = sentinel(C.OBLIVEX_ERR_INVALID_ELEMENT)
	// ErrInvalidScalar: an encoded scalar is not canonical, or zero where
	// a key or a share is expected.
	ErrInvalidScalar error = sentinel(C.OBLIVEX_ERR_INVALID_SCALAR)
	// ErrVerificationFailed: a proof or the check of a server's answers
	// failed (a malicious server), a share does not match its commitments,
	// or a signature does not verify. No output.
	ErrVerificationFailed error = sentinel(C.OBLIVEX_ERR_VERIFICATION_FAILED)
	// ErrRNGFailure: the operating system's random number generator failed.
	ErrRNGFailure error = sentinel(C.OBLIVEX_ERR_RNG_FAILURE)
	// ErrInvalidInput: a protocol input was rejected: it hashes to the
	// identity, a POPRF info gives an unusable key, or a ciphertext
	// decrypts to the identity.
	ErrInvalidInput error = sentinel(C.OBLIVEX_ERR_INVALID_INPUT)
	// ErrDeriveKeyPair: RFC 9497 DeriveKeyPair found no valid key in 256
	// attempts.
	ErrDeriveKeyPair error = sentinel(C.OBLIVEX_ERR_DERIVE_KEY_PAIR)
	// ErrUnknownSuite: a Suite value this library does not know.
	ErrUnknownSuite error = sentinel(C.OBLIVEX_ERR_UNKNOWN_SUITE)
	// ErrBatchUsed: a client batch was finalized already (its secrets are
	// spent): blind again.
	ErrBatchUsed error = sentinel(C.OBLIVEX_ERR_BATCH_USED)
	// ErrInvalidKappa: κ is neither 0 (the default) nor in
	// KappaMin..KappaMax.
	ErrInvalidKappa error = sentinel(C.OBLIVEX_ERR_INVALID_KAPPA)
	// ErrUnknownCheck: a Check value this library does not know.
	ErrUnknownCheck error = sentinel(C.OBLIVEX_ERR_UNKNOWN_CHECK)
	// ErrMissingPublicKey: the server's public key is needed (VOPRF,
	// POPRF, CheckCommittedKey) and was not given.
	ErrMissingPublicKey error = sentinel(C.OBLIVEX_ERR_MISSING_PUBLIC_KEY)
	// ErrInvalidPartyID: a party (server) id is zero, above MaxParties or
	// repeated, a quorum is not exactly t ids, or a server answered from
	// outside the named quorum.
	ErrInvalidPartyID error = sentinel(C.OBLIVEX_ERR_INVALID_PARTY_ID)
	// ErrInvalidThreshold: a threshold t of m is unusable (t = 0, t > m,
	// or m above MaxParties; for a DKG also m < 2 or m < 2t-1, or t = 1 in
	// a refresh).
	ErrInvalidThreshold error = sentinel(C.OBLIVEX_ERR_INVALID_THRESHOLD)
	// ErrNotEnoughResponses: fewer than t servers answered correctly; it
	// comes inside a *CheatingServersError naming the servers caught.
	ErrNotEnoughResponses error = sentinel(C.OBLIVEX_ERR_NOT_ENOUGH_RESPONSES)
	// ErrUnknownTarget: an ElGamalTarget value this library does not know.
	ErrUnknownTarget error = sentinel(C.OBLIVEX_ERR_UNKNOWN_TARGET)
	// ErrSuiteMismatch: values of different suites were used together (a
	// key share and commitments, a public key and a client), or a DKG
	// message is of another suite than the run's.
	ErrSuiteMismatch error = sentinel(C.OBLIVEX_ERR_SUITE_MISMATCH)
	// ErrMissingProof: the proof is missing where the mode needs one
	// (VOPRF, POPRF).
	ErrMissingProof error = sentinel(C.OBLIVEX_ERR_MISSING_PROOF)
	// ErrEqualPrimes: the two primes of an RSA key are equal.
	ErrEqualPrimes error = sentinel(C.OBLIVEX_ERR_EQUAL_PRIMES)
	// ErrUnsupportedKeySize: the primes of an RSA key have different bit
	// lengths, or lengths outside 2..4096 bits.
	ErrUnsupportedKeySize error = sentinel(C.OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE)
	// ErrInvalidCRTExponent: an RSA key's dp or dq is even or not below
	// its prime.
	ErrInvalidCRTExponent error = sentinel(C.OBLIVEX_ERR_INVALID_CRT_EXPONENT)
	// ErrInvalidCRTCoefficient: an RSA key's qinv is not q^-1 mod p.
	ErrInvalidCRTCoefficient error = sentinel(C.OBLIVEX_ERR_INVALID_CRT_COEFFICIENT)
	// ErrCiphertextOutOfRange: an RSA ciphertext (or message to sign) is
	// not below the modulus n.
	ErrCiphertextOutOfRange error = sentinel(C.OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE)
	// ErrUnsupportedVersion: a DKG message's format version is not one
	// this library reads.
	ErrUnsupportedVersion error = sentinel(C.OBLIVEX_ERR_UNSUPPORTED_VERSION)
	// ErrWrongMessageKind: a DKG message is of another kind than the one
	// expected (or a key generation's message in a refresh).
	ErrWrongMessageKind error = sentinel(C.OBLIVEX_ERR_WRONG_MESSAGE_KIND)
	// ErrWrongParameters: a DKG message's threshold or party count differs
	// from the run's.
	ErrWrongParameters error = sentinel(C.OBLIVEX_ERR_WRONG_PARAMETERS)
	// ErrWrongSession: a DKG message carries another session id.
	ErrWrongSession error = sentinel(C.OBLIVEX_ERR_WRONG_SESSION)
	// ErrWrongSender: the sender written in a DKG message is not the
	// party the transport authenticated.
	ErrWrongSender error = sentinel(C.OBLIVEX_ERR_WRONG_SENDER)
	// ErrWrongRecipient: a DKG share pair is addressed to another party.
	ErrWrongRecipient error = sentinel(C.OBLIVEX_ERR_WRONG_RECIPIENT)
	// ErrUnsortedPartyIDs: a list of party ids in a DKG message is not
	// strictly increasing, or names its sender.
	ErrUnsortedPartyIDs error = sentinel(C.OBLIVEX_ERR_UNSORTED_PARTY_IDS)
	// ErrDuplicateMessage: two DKG messages of one round from the same
	// sender, or one from the receiving party itself.
	ErrDuplicateMessage error = sentinel(C.OBLIVEX_ERR_DUPLICATE_MESSAGE)
	// ErrNoQualifiedParty: every party of a DKG run was disqualified.
	ErrNoQualifiedParty error = sentinel(C.OBLIVEX_ERR_NO_QUALIFIED_PARTY)
	// ErrNotEnoughRevealedShares: fewer than t valid shares of an exposed
	// DKG dealer were revealed.
	ErrNotEnoughRevealedShares error = sentinel(C.OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES)
	// ErrDegenerateKey: a DKG's key, a joint commitment or a share came
	// out as the identity or zero (probability about n/q): run again with
	// a new session id.
	ErrDegenerateKey error = sentinel(C.OBLIVEX_ERR_DEGENERATE_KEY)
	// ErrShareMismatch: a key share does not match the commitments it
	// should (a refresh started from a share of another key, or a broken
	// DKG).
	ErrShareMismatch error = sentinel(C.OBLIVEX_ERR_SHARE_MISMATCH)
	// ErrWrongRound: a DKG round value was used a second time (its party
	// moved on), or its run failed.
	ErrWrongRound error = sentinel(C.OBLIVEX_ERR_WRONG_ROUND)
	// ErrOldCommitmentsMismatch: a refresh or resharing message names other
	// old commitments than the run's (its sender, or this party, started
	// from another sharing of the key).
	ErrOldCommitmentsMismatch error = sentinel(C.OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH)
	// ErrPanic: internal error, a panic caught at the library's C
	// boundary (a bug in oblivex; please report it).
	ErrPanic error = sentinel(C.OBLIVEX_ERR_PANIC)
	// ErrClosed: the handle was closed.
	ErrClosed = errors.New("oblivex: use of a closed handle")
)

// statusErrors are the sentinels mapped from status codes.
var statusErrors = []error{
	ErrNullPointer, ErrBadLength, ErrEmptyInput, ErrZeroModulus, ErrEvenModulus,
	ErrModulusTooLarge, ErrUnsupportedBackend, ErrInvalidElement, ErrInvalidScalar,
	ErrVerificationFailed, ErrRNGFailure, ErrInvalidInput, ErrDeriveKeyPair,
	ErrUnknownSuite, ErrBatchUsed, ErrInvalidKappa, ErrUnknownCheck,
	ErrMissingPublicKey, ErrInvalidPartyID, ErrInvalidThreshold, ErrNotEnoughResponses,
	ErrUnknownTarget, ErrSuiteMismatch, ErrMissingProof, ErrEqualPrimes,
	ErrUnsupportedKeySize, ErrInvalidCRTExponent, ErrInvalidCRTCoefficient,
	ErrCiphertextOutOfRange, ErrUnsupportedVersion,
	ErrWrongMessageKind, ErrWrongParameters, ErrWrongSession, ErrWrongSender,
	ErrWrongRecipient, ErrUnsortedPartyIDs, ErrDuplicateMessage, ErrNoQualifiedParty,
	ErrNotEnoughRevealedShares, ErrDegenerateKey, ErrShareMismatch, ErrWrongRound,
	ErrOldCommitmentsMismatch, ErrPanic,
}

// check maps a status code to nil or its sentinel error. A code without a
// sentinel (one the package's own checks rule out, or one newer than this
// package) still gives a descriptive error.
func check(status C.oblivex_status) error {
	if status == C.OBLIVEX_OK {
		return nil
	}
	for _, e := range statusErrors {
		if e.(*statusError).code == status {
			return e
		}
	}
	return &statusError{code: status, message: fmt.Sprintf("%s (status %d)", C.GoString(C.oblivex_status_str(status)), int(status))}
}

// CheatingServersError is the failure of a threshold client's Finalize
// that comes after every answer was checked (and of DeriveBLSKeySet,
// after every signer's key was): Err is the reason
// (ErrNotEnoughResponses: fewer than t correct answers;
// ErrVerificationFailed: a cheater in a named quorum, so ask another
// quorum with a fresh batch; ErrInvalidInput, ElGamal only: a ciphertext
// decrypts to the identity) and Servers the ids of the servers caught
// cheating, possibly none. errors.Is(err, ErrNotEnoughResponses) holds
// through it; errors.As gives the ids.
type CheatingServersError struct {
	// Servers are the party ids whose answers failed their check (or did
	// not decode), as the library reports them.
	Servers []uint16
	// Err is the reason the batch gave no output.
	Err error
}

// Error describes the failure and names the cheaters.
func (e *CheatingServersError) Error() string {
	return fmt.Sprintf("%v (servers caught cheating: %v)", e.Err, e.Servers)
}

// Unwrap returns the reason the batch failed.
func (e *CheatingServersError) Unwrap() error { return e.Err }
