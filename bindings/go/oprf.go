package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// OPRFServer is an RFC 9497 server: a suite, a mode and a secret key.
// Immutable; safe for concurrent use. Close wipes the key.
type OPRFServer struct {
	suite     Suite
	mode      Mode
	publicKey *PublicKey
	res       resource[C.struct_oblivex_oprf_server]
}

// newOPRFServer wraps a new handle (freeing it if its public key cannot be
// read).
func newOPRFServer(suite Suite, mode Mode, p *C.struct_oblivex_oprf_server) (*OPRFServer, error) {
	out := newOut(suite.ElementLen())
	if err := check(C.oblivex_oprf_server_public_key(p, out.ptr(), out.capacity(), &out.written)); err != nil {
		C.oblivex_oprf_server_free(p)
		return nil, err
	}
	s := &OPRFServer{suite: suite, mode: mode, publicKey: &PublicKey{suite: suite, encoded: out.bytes()}}
	s.res.init(p, func(p *C.struct_oblivex_oprf_server) { C.oblivex_oprf_server_free(p) })
	runtime.SetFinalizer(s, (*OPRFServer).Close)
	return s, nil
}

// NewOPRFServer makes a server of suite in mode from an encoded secret key
// (Suite.ScalarLen bytes): ErrUnknownSuite, ErrUnknownMode, or
// ErrInvalidScalar for a key of the wrong length, not canonical, or zero.
func NewOPRFServer(suite Suite, mode Mode, secretKey []byte) (*OPRFServer, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_new(C.oblivex_suite(suite), C.oblivex_oprf_mode(mode), in(secretKey), size(len(secretKey)), &p)); err != nil {
		return nil, err
	}
	return newOPRFServer(suite, mode, p)
}

// DeriveOPRFServer makes a server whose key is RFC 9497 DeriveKeyPair(seed,
// info) for this suite and mode (the key depends on the mode, as in the
// RFC). ErrBadLength for an info longer than MaxInputLen,
// ErrDeriveKeyPair if no key was found.
func DeriveOPRFServer(suite Suite, mode Mode, seed, info []byte) (*OPRFServer, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_derive(C.oblivex_suite(suite), C.oblivex_oprf_mode(mode), in(seed), size(len(seed)),
		opt(info), size(len(info)), &p)); err != nil {
		return nil, err
	}
	return newOPRFServer(suite, mode, p)
}

// GenerateOPRFServer makes a server with a fresh key from the operating
// system's random source.
func GenerateOPRFServer(suite Suite, mode Mode) (*OPRFServer, error) {
	var p *C.struct_oblivex_oprf_server
	if err := check(C.oblivex_oprf_server_generate(C.oblivex_suite(suite), C.oblivex_oprf_mode(mode), &p)); err != nil {
		return nil, err
	}
	return newOPRFServer(suite, mode, p)
}

// Close wipes and releases the key. Idempotent; always nil.
func (s *OPRFServer) Close() error { return s.res.close() }

// Suite is the server's suite.
func (s *OPRFServer) Suite() Suite { return s.suite }

// Mode is the server's mode.
func (s *OPRFServer) Mode() Mode { return s.mode }

// PublicKey is the server's public key k·B, to publish: what VOPRF, POPRF
// and checked clients verify against (it stays readable after Close).
func (s *OPRFServer) PublicKey() *PublicKey { return s.publicKey }

// SecretKey is the encoded secret key (Suite.ScalarLen bytes), for storing
// it: handle it as the secret it is and wipe it after use.
func (s *OPRFServer) SecretKey() ([]byte, error) {
	out := newOut(s.suite.ScalarLen())
	err := s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_secret_key(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// Evaluate is the server's step in its mode: it raises every blinded
// element (concatenated element encodings, as sent by a client) to the key
// and returns the evaluated elements (same length, same order) and, in
// VOPRF and POPRF mode, one proof for the whole batch (nil in OPRF mode).
// info is the POPRF public input (nil in the other modes). Checked and
// threshold clients need no proof: serve them in ModeOPRF.
//
// Every element is an evaluation the client can use (a checked request's
// balancer looks like any input): rate limits must count elements, not
// calls.
//
// ErrBadLength for a request that is not a whole, non-zero number of
// elements (at most 65535), an info too long or given outside POPRF;
// ErrInvalidElement for any element not canonical, not in the group, or
// the identity; ErrInvalidInput if the POPRF info gives an unusable key.
func (s *OPRFServer) Evaluate(blinded, info []byte) (evaluated, proof []byte, err error) {
	ev := newOut(len(blinded))
	pr := newOut(s.suite.ProofLen())
	err = s.res.use(func(p *C.struct_oblivex_oprf_server) error {
		return check(C.oblivex_oprf_server_evaluate(p, in(blinded), size(len(blinded)), opt(info), size(len(info)),
			ev.ptr(), ev.capacity(), &ev.written, pr.ptr(), pr.capacity(), &pr.written))
	})
	if err != nil {
		return nil, nil, err
	}
	return ev.bytes(), pr.bytes(), nil
}

// OPRFClient is an RFC 9497 client: its suite, mode and (VOPRF, POPRF) the
// server's public key, obtained authentically. Immutable; safe for
// concurrent use: each Blind makes an independent batch.
type OPRFClient struct {
	suite     Suite
	mode      Mode
	publicKey *PublicKey
}

// NewOPRFClient makes a client of suite in mode. publicKey is the
// server's: required in VOPRF and POPRF mode (ErrMissingPublicKey), of the
// same suite (ErrSuiteMismatch), nil (or ignored) in OPRF mode.
func NewOPRFClient(suite Suite, mode Mode, publicKey *PublicKey) (*OPRFClient, error) {
	if err := suite.known(); err != nil {
		return nil, err
	}
	if err := mode.known(); err != nil {
		return nil, err
	}
	if mode != ModeOPRF && publicKey == nil {
		return nil, ErrMissingPublicKey
	}
	if err := matchKey(suite, publicKey); err != nil {
		return nil, err
	}
	if mode == ModeOPRF {
		publicKey = nil
	}
	return &OPRFClient{suite: suite, mode: mode, publicKey: publicKey}, nil
}

// Suite is the client's suite.
func (c *OPRFClient) Suite() Suite { return c.suite }

// Mode is the client's mode.
func (c *OPRFClient) Mode() Mode { return c.mode }

// PublicKey is the server's public key the client verifies against (nil
// in OPRF mode).
func (c *OPRFClient) PublicKey() *PublicKey { return c.publicKey }

// Blind hashes and blinds a batch of inputs (each at most MaxInputLen
// bytes) with fresh random blinds and returns the batch holding them,
// whose Request is the blinded elements to send to the server. info is
// the POPRF public input (nil in the other modes: ErrBadLength otherwise).
// ErrEmptyInput for no input; ErrInvalidInput if an input hashes to the
// identity or the info gives an unusable key.
func (c *OPRFClient) Blind(inputs [][]byte, info []byte) (*OPRFBatch, error) {
	arrays := newCArrays(inputs)
	defer arrays.free()
	var key []byte
	if c.publicKey != nil {
		key = c.publicKey.encoded
	}
	request := newOut(len(inputs) * c.suite.ElementLen())
	var p *C.struct_oblivex_oprf_batch
	err := check(C.oblivex_oprf_batch_blind(C.oblivex_suite(c.suite), C.oblivex_oprf_mode(c.mode), arrays.ptrs, arrays.lens, size(len(inputs)),
		opt(info), size(len(info)), opt(key), size(len(key)), request.ptr(), request.capacity(), &request.written, &p))
	if err != nil {
		return nil, err
	}
	b := &OPRFBatch{suite: c.suite, count: len(inputs), request: request.bytes()}
	b.res.init(p, func(p *C.struct_oblivex_oprf_batch) { C.oblivex_oprf_batch_free(p) })
	runtime.SetFinalizer(b, (*OPRFBatch).Close)
	return b, nil
}

// OPRFBatch is one blinded batch of an OPRFClient: its request and the
// secret blinds, kept until Finalize. Single use; Close wipes it.
type OPRFBatch struct {
	suite   Suite
	count   int
	request []byte
	res     resource[C.struct_oblivex_oprf_batch]
}

// Request is what to send to the server: the blinded elements,
// concatenated (the batch's own slice: do not modify it).
func (b *OPRFBatch) Request() []byte { return b.request }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *OPRFBatch) Close() error { return b.res.close() }

// Finalize checks the server's answer (evaluated, one element per input)
// and, in VOPRF and POPRF mode, its proof (once for the whole batch; nil
// in OPRF mode), then returns the PRF output of every input
// (Suite.OutputLen bytes each, in order).
//
// The batch is spent by the first call that gets as far as checking the
// answer: success, or ErrVerificationFailed (a malicious server: never
// retry with the same request); later calls give ErrBatchUsed. A call
// refused for a malformed argument (ErrBadLength, ErrInvalidElement,
// ErrInvalidScalar, ErrMissingProof) leaves it usable.
func (b *OPRFBatch) Finalize(evaluated, proof []byte) ([][]byte, error) {
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
