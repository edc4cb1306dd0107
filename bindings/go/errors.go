package oblivex

// #include <oblivex.h>
import "C"

import (
	"errors"
	"fmt"
)

// statusError is a library status code; each code has one sentinel value.
type statusError struct {
	code    C.int
	message string
}

func (e *statusError) Error() string { return "oblivex: " + e.message }

func sentinel(code C.int) *statusError {
	return &statusError{code: code, message: C.GoString(C.oblivex_status_str(code))}
}

// The errors the library returns, one per status code of the C API.
var (
	ErrNullPointer        error = sentinel(C.OBLIVEX_ERR_NULL_POINTER)
	ErrBadLength          error = sentinel(C.OBLIVEX_ERR_BAD_LENGTH)
	ErrEmptyInput         error = sentinel(C.OBLIVEX_ERR_EMPTY_INPUT)
	ErrZeroModulus        error = sentinel(C.OBLIVEX_ERR_ZERO_MODULUS)
	ErrEvenModulus        error = sentinel(C.OBLIVEX_ERR_EVEN_MODULUS)
	ErrModulusTooLarge    error = sentinel(C.OBLIVEX_ERR_MODULUS_TOO_LARGE)
	ErrBufferTooSmall     error = sentinel(C.OBLIVEX_ERR_BUFFER_TOO_SMALL)
	ErrUnsupportedBackend error = sentinel(C.OBLIVEX_ERR_UNSUPPORTED_BACKEND)
	ErrInvalidElement     error = sentinel(C.OBLIVEX_ERR_INVALID_ELEMENT)
	ErrInvalidScalar      error = sentinel(C.OBLIVEX_ERR_INVALID_SCALAR)
	ErrVerificationFailed error = sentinel(C.OBLIVEX_ERR_VERIFICATION_FAILED)
	ErrRNGFailure         error = sentinel(C.OBLIVEX_ERR_RNG_FAILURE)
	ErrInvalidInput       error = sentinel(C.OBLIVEX_ERR_INVALID_INPUT)
	ErrDeriveKeyPair      error = sentinel(C.OBLIVEX_ERR_DERIVE_KEY_PAIR)
	ErrUnknownSuite       error = sentinel(C.OBLIVEX_ERR_UNKNOWN_SUITE)
	ErrBatchUsed          error = sentinel(C.OBLIVEX_ERR_BATCH_USED)
	ErrUnknownMode        error = sentinel(C.OBLIVEX_ERR_UNKNOWN_MODE)
	ErrInvalidKappa       error = sentinel(C.OBLIVEX_ERR_INVALID_KAPPA)
	ErrUnknownCheck       error = sentinel(C.OBLIVEX_ERR_UNKNOWN_CHECK)
	ErrMissingPublicKey   error = sentinel(C.OBLIVEX_ERR_MISSING_PUBLIC_KEY)
	ErrInvalidPartyID     error = sentinel(C.OBLIVEX_ERR_INVALID_PARTY_ID)
	ErrInvalidThreshold   error = sentinel(C.OBLIVEX_ERR_INVALID_THRESHOLD)
	ErrNotEnoughResponses error = sentinel(C.OBLIVEX_ERR_NOT_ENOUGH_RESPONSES)
	ErrPanic              error = sentinel(C.OBLIVEX_ERR_PANIC)
	// ErrClosed: the handle was closed (or the batch already finished).
	ErrClosed = errors.New("oblivex: use of a closed handle")
)

var allErrors = []error{
	ErrNullPointer, ErrBadLength, ErrEmptyInput, ErrZeroModulus, ErrEvenModulus,
	ErrModulusTooLarge, ErrBufferTooSmall, ErrUnsupportedBackend, ErrInvalidElement,
	ErrInvalidScalar, ErrVerificationFailed, ErrRNGFailure, ErrInvalidInput,
	ErrDeriveKeyPair, ErrUnknownSuite, ErrBatchUsed, ErrUnknownMode, ErrInvalidKappa,
	ErrUnknownCheck, ErrMissingPublicKey, ErrInvalidPartyID, ErrInvalidThreshold,
	ErrNotEnoughResponses, ErrPanic,
}

// check maps a status code to nil or its sentinel error.
func check(status C.enum_oblivex_status) error {
	code := C.int(status)
	if code == C.OBLIVEX_OK {
		return nil
	}
	for _, e := range allErrors {
		if e.(*statusError).code == code {
			return e
		}
	}
	return fmt.Errorf("oblivex: unknown status %d", int(code))
}

// CheatingServersError reports the servers of a threshold protocol whose
// answers failed their check. Err is the reason the batch failed
// (ErrNotEnoughResponses, or ErrVerificationFailed for a named quorum), so
// errors.Is(err, ErrNotEnoughResponses) holds; errors.As gives the ids.
type CheatingServersError struct {
	Servers []uint16
	Err     error
}

func (e *CheatingServersError) Error() string {
	return fmt.Sprintf("%v (servers caught cheating: %v)", e.Err, e.Servers)
}

// Unwrap returns the reason the batch failed.
func (e *CheatingServersError) Unwrap() error { return e.Err }
