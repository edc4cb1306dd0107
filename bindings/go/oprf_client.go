package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// The RFC 9497 clients: one type per mode, as the servers, each with its
// own batch type, so that a POPRF info, a VOPRF proof or a public key is
// asked for exactly where the mode has one. Clients are immutable and safe
// for concurrent use (each Blind makes an independent batch); a batch is
// single use and Close wipes it.

// OPRFClient is an RFC 9497 OPRF-mode client of a suite: the server's
// answer is not verified (CheckedClient verifies one without a proof).
type OPRFClient struct{ client }

// VOPRFClient is an RFC 9497 VOPRF-mode client: it verifies each answer's
// proof against the server's public key, obtained authentically.
type VOPRFClient struct{ verifyingClient }

// POPRFClient is an RFC 9497 POPRF-mode client: VOPRF with a public info
// string, given to each Blind, that tweaks the server's key.
type POPRFClient struct{ verifyingClient }

// NewOPRFClient makes an OPRF client of suite (ErrUnknownSuite).
func NewOPRFClient(suite Suite) (*OPRFClient, error) {
	if err := suite.known(); err != nil {
		return nil, err
	}
	return &OPRFClient{client{suite: suite, mode: ModeOPRF}}, nil
}

// NewVOPRFClient makes a VOPRF client that verifies against publicKey, the
// server's, of the suite it is made for (ErrMissingPublicKey for nil).
func NewVOPRFClient(publicKey *PublicKey) (*VOPRFClient, error) {
	c, err := newVerifyingClient(ModeVOPRF, publicKey)
	if err != nil {
		return nil, err
	}
	return &VOPRFClient{c}, nil
}

// NewPOPRFClient is NewVOPRFClient for a POPRF client.
func NewPOPRFClient(publicKey *PublicKey) (*POPRFClient, error) {
	c, err := newVerifyingClient(ModePOPRF, publicKey)
	if err != nil {
		return nil, err
	}
	return &POPRFClient{c}, nil
}

// Blind hashes and blinds a batch of inputs (each at most MaxInputLen
// bytes; an empty input is an input) with fresh random blinds and returns
// the batch holding them, whose Request is the blinded elements to send to
// the server. ErrEmptyInput for no input; ErrInvalidInput if an input
// hashes to the identity.
func (c *OPRFClient) Blind(inputs [][]byte) (*OPRFBatch, error) {
	return blind[OPRFBatch](&c.client, inputs, nil, nil)
}

// Blind is OPRFClient.Blind for a VOPRF batch.
func (c *VOPRFClient) Blind(inputs [][]byte) (*VOPRFBatch, error) {
	return blind[VOPRFBatch](&c.client, inputs, nil, c.publicKey)
}

// Blind is OPRFClient.Blind for a POPRF batch under info, the public input
// the server evaluates with (at most MaxInputLen bytes; may be empty).
// ErrInvalidInput also if the info gives an unusable key.
func (c *POPRFClient) Blind(inputs [][]byte, info []byte) (*POPRFBatch, error) {
	return blind[POPRFBatch](&c.client, inputs, info, c.publicKey)
}

// OPRFBatch is one blinded batch of an OPRFClient: its request and the
// secret blinds, kept until Finalize.
type OPRFBatch struct{ batch }

// VOPRFBatch is one blinded batch of a VOPRFClient.
type VOPRFBatch struct{ batch }

// POPRFBatch is one blinded batch of a POPRFClient (holding its info).
type POPRFBatch struct{ batch }

// Finalize takes the server's answer (evaluated, one element per input)
// and returns the PRF output of every input (Suite.OutputLen bytes each,
// in order).
//
// The batch is spent by the first call that gets as far as using the
// answer; later calls give ErrBatchUsed. A call refused for a malformed
// answer (ErrBadLength, ErrInvalidElement) leaves it usable.
func (b *OPRFBatch) Finalize(evaluated []byte) ([][]byte, error) {
	return b.finalize(evaluated, nil)
}

// Finalize checks the server's answer (evaluated, one element per input)
// and its proof (once for the whole batch), then returns the PRF output of
// every input (Suite.OutputLen bytes each, in order).
//
// The batch is spent by the first call that gets as far as checking the
// answer: success, or ErrVerificationFailed (a malicious server: never
// retry with the same request); later calls give ErrBatchUsed. A call
// refused for a malformed argument (ErrBadLength, ErrInvalidElement,
// ErrInvalidScalar, ErrMissingProof) leaves it usable.
func (b *VOPRFBatch) Finalize(evaluated, proof []byte) ([][]byte, error) {
	return b.finalize(evaluated, proof)
}

// Finalize is VOPRFBatch.Finalize; the proof holds only for the info the
// batch was blinded with.
func (b *POPRFBatch) Finalize(evaluated, proof []byte) ([][]byte, error) {
	return b.finalize(evaluated, proof)
}

// client is what every RFC 9497 client has: its suite and mode.
type client struct {
	suite Suite
	mode  Mode
}

// Suite is the client's suite.
func (c *client) Suite() Suite { return c.suite }

// Mode is the client's mode, the one its type names.
func (c *client) Mode() Mode { return c.mode }

// verifyingClient is a client that checks proofs: the VOPRF and POPRF
// ones, with the server's public key.
type verifyingClient struct {
	client
	publicKey *PublicKey
}

func newVerifyingClient(mode Mode, publicKey *PublicKey) (verifyingClient, error) {
	if publicKey == nil {
		return verifyingClient{}, ErrMissingPublicKey
	}
	return verifyingClient{client{suite: publicKey.suite, mode: mode}, publicKey}, nil
}

// PublicKey is the server's public key the client verifies against.
func (c *verifyingClient) PublicKey() *PublicKey { return c.publicKey }

// batch is what the three batches share: the C handle with the blinds,
// the request, and what Finalize needs to size its outputs.
type batch struct {
	suite   Suite
	count   int
	request []byte
	res     resource[*C.struct_oblivex_oprf_batch]
}

// Request is what to send to the server: the blinded elements,
// concatenated (the batch's own slice: do not modify it).
func (b *batch) Request() []byte { return b.request }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *batch) Close() error { return b.res.close() }

// finalize is the C client's last step (the C batch knows its mode: the
// proof is nil in OPRF mode).
func (b *batch) finalize(evaluated, proof []byte) ([][]byte, error) {
	outputs := newOut(b.count * b.suite.OutputLen())
	err := b.res.finish(func(p *C.struct_oblivex_oprf_batch) error {
		return check(C.oblivex_oprf_batch_finalize(p, in(evaluated), size(len(evaluated)), opt(proof), size(len(proof)),
			outputs.ptr(), outputs.capacity(), &outputs.written))
	})
	if err != nil {
		return nil, err
	}
	return split(outputs.bytes(), b.count), nil
}

func (b *batch) base() *batch { return b }

// blind is the C client's first step for c (info only in POPRF, a public
// key only in VOPRF and POPRF), wrapped in a batch of type B; a finalizer
// closes a batch that is forgotten.
func blind[B any, P interface {
	*B
	base() *batch
}](c *client, inputs [][]byte, info []byte, publicKey *PublicKey) (P, error) {
	arrays := newCArrays(inputs)
	defer arrays.free()
	var key []byte
	if publicKey != nil {
		key = publicKey.encoded
	}
	request := newOut(len(inputs) * c.suite.ElementLen())
	var p *C.struct_oblivex_oprf_batch
	err := check(C.oblivex_oprf_batch_blind(C.oblivex_suite(c.suite), C.oblivex_oprf_mode(c.mode), arrays.ptrs, arrays.lens, size(len(inputs)),
		opt(info), size(len(info)), opt(key), size(len(key)), request.ptr(), request.capacity(), &request.written, &p))
	if err != nil {
		return nil, err
	}
	b := P(new(B))
	base := b.base()
	base.suite, base.count, base.request = c.suite, len(inputs), request.bytes()
	base.res.init(p, func(p *C.struct_oblivex_oprf_batch) { C.oblivex_oprf_batch_free(p) })
	runtime.SetFinalizer(b, func(b P) { b.base().Close() })
	return b, nil
}
