package oblivex

// #include <oblivex.h>
import "C"

import (
	"fmt"
	"runtime"
)

// CheckedClient is the batch OPRF client secure against a malicious server
// without any proof (the balancer check of Baum et al., ePrint
// 2024/1613): its request carries one extra element (more for
// CheckKeyFree on small batches), the server answers with its plain
// OPRFServer.Evaluate, and Finalize returns every output or
// ErrVerificationFailed and none. Immutable; safe for concurrent use: each
// Blind makes an independent batch.
type CheckedClient struct {
	suite     Suite
	check     Check
	publicKey *PublicKey
	kappa     uint32
}

// NewCheckedClient makes a checked client of suite. CheckCommittedKey
// takes the server's public key (ErrMissingPublicKey without one,
// ErrSuiteMismatch for another suite's); CheckKeyFree takes none (nil;
// ErrBadLength otherwise). kappa is the bit length of the secret
// verification factors, KappaMin..KappaMax or 0 for the default, 64
// (ErrInvalidKappa): a cheating server passes with probability at most
// 2^-kappa.
func NewCheckedClient(suite Suite, check Check, publicKey *PublicKey, kappa uint32) (*CheckedClient, error) {
	if err := suite.known(); err != nil {
		return nil, err
	}
	switch check {
	case CheckCommittedKey:
		if publicKey == nil {
			return nil, ErrMissingPublicKey
		}
	case CheckKeyFree:
		if publicKey != nil {
			return nil, fmt.Errorf("oblivex: the key-free check takes no public key: %w", ErrBadLength)
		}
	default:
		return nil, ErrUnknownCheck
	}
	if err := matchKey(suite, publicKey); err != nil {
		return nil, err
	}
	if err := checkKappa(kappa); err != nil {
		return nil, err
	}
	return &CheckedClient{suite: suite, check: check, publicKey: publicKey, kappa: kappa}, nil
}

// Suite is the client's suite.
func (c *CheckedClient) Suite() Suite { return c.suite }

// Check is the client's check.
func (c *CheckedClient) Check() Check { return c.check }

// PublicKey is the server's public key (nil for CheckKeyFree).
func (c *CheckedClient) PublicKey() *PublicKey { return c.publicKey }

// Kappa is the client's κ (0: the default, 64).
func (c *CheckedClient) Kappa() uint32 { return c.kappa }

// RequestLen is the number of elements a request for count inputs holds:
// the inputs, the balancer and, for CheckKeyFree, random padding until
// the secret factors reach 256 bits. 0 for count < 1 or a request above
// 65535 elements.
func (c *CheckedClient) RequestLen(count int) int {
	if count < 1 {
		return 0
	}
	return int(C.oblivex_checked_oprf_request_len(C.oblivex_check(c.check), C.uint32_t(c.kappa), size(count)))
}

// Blind hashes and blinds the inputs (each at most MaxInputLen bytes),
// hides the balancer among them (and the padding of CheckKeyFree), and
// returns the batch, whose Request goes to the server. ErrEmptyInput for
// no input, ErrBadLength for a request above 65535 elements,
// ErrInvalidInput if an input hashes to the identity.
func (c *CheckedClient) Blind(inputs [][]byte) (*CheckedBatch, error) {
	if len(inputs) == 0 {
		return nil, ErrEmptyInput
	}
	elements := c.RequestLen(len(inputs))
	if elements == 0 {
		return nil, ErrBadLength
	}
	arrays := newCArrays(inputs)
	defer arrays.free()
	var key []byte
	if c.publicKey != nil {
		key = c.publicKey.encoded
	}
	request := newOut(elements * c.suite.ElementLen())
	var p *C.struct_oblivex_checked_oprf_batch
	err := check(C.oblivex_checked_oprf_batch_blind(C.oblivex_suite(c.suite), C.oblivex_check(c.check), C.uint32_t(c.kappa),
		opt(key), size(len(key)), arrays.ptrs, arrays.lens, size(len(inputs)),
		request.ptr(), request.capacity(), &request.written, &p))
	if err != nil {
		return nil, err
	}
	b := &CheckedBatch{suite: c.suite, count: len(inputs), request: request.bytes()}
	b.res.init(p, func(p *C.struct_oblivex_checked_oprf_batch) { C.oblivex_checked_oprf_batch_free(p) })
	runtime.SetFinalizer(b, (*CheckedBatch).Close)
	return b, nil
}

// CheckedBatch is one blinded batch of a CheckedClient: its request, and
// the blinds and the check's secret coins, kept until Finalize. Single
// use; Close wipes it.
type CheckedBatch struct {
	suite   Suite
	count   int
	request []byte
	res     resource[*C.struct_oblivex_checked_oprf_batch]
}

// Request is what to send to the server (CheckedClient.RequestLen element
// encodings, concatenated; the batch's own slice: do not modify it).
func (b *CheckedBatch) Request() []byte { return b.request }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *CheckedBatch) Close() error { return b.res.close() }

// Finalize checks the server's response (one element per element of the
// request) and returns the PRF output of every input (Suite.OutputLen
// bytes each, in order), equal to the plain OPRF's, or
// ErrVerificationFailed and none: the server did not apply its key to
// every element (stop using it).
//
// The batch is spent by the first call that gets as far as checking the
// answer (later calls give ErrBatchUsed: blind again); a call refused for
// a malformed response (ErrBadLength, ErrInvalidElement) leaves it usable.
func (b *CheckedBatch) Finalize(response []byte) ([][]byte, error) {
	outputs := newOut(b.count * b.suite.OutputLen())
	err := b.res.finish(func(p *C.struct_oblivex_checked_oprf_batch) error {
		return check(C.oblivex_checked_oprf_batch_finalize(p, in(response), size(len(response)),
			outputs.ptr(), outputs.capacity(), &outputs.written))
	})
	if err != nil {
		return nil, err
	}
	return split(outputs.bytes(), b.count), nil
}
